import { imagePrefix, manifestDigest, type RegistryTarget } from '../catalog/registry-client';
import type { OutboundPolicy } from '../catalog/outbound-policy';
import type { RegistryService } from '../catalog/registry.service';
import { imageHost } from '../engines/container-launcher';
import type { ImageInspect } from '../engines/docker-types';
import { DomainError } from '../errors';
import type { PinnedImage } from './revision-definition';

const DIGEST = /^sha256:[0-9a-f]{64}$/;

/** `127.0.0.1:5000/team/web:v1` → `127.0.0.1:5000/team/web`: the tag and any digest dropped. */
export function repositoryOf(ref: string): string {
  const name = ref.split('@')[0];
  const slash = name.lastIndexOf('/');
  const colon = name.indexOf(':', slash + 1);
  return colon >= 0 ? name.slice(0, colon) : name;
}

/** The tag a reference names (`latest` when it names none). */
function tagOf(ref: string): string {
  const name = ref.split('@')[0];
  const slash = name.lastIndexOf('/');
  const colon = name.indexOf(':', slash + 1);
  return colon >= 0 ? name.slice(colon + 1) : 'latest';
}

/** Docker Hub's names as the engine writes them in RepoDigests (`busybox`, not `docker.io/library/busybox`). */
function canonical(repository: string): string {
  return repository.replace(/^(docker\.io|index\.docker\.io|registry-1\.docker\.io)\//, '').replace(/^library\//, '');
}

function digestOf(ref: string): string | null {
  const digest = ref.split('@')[1];
  return digest && DIGEST.test(digest) ? digest : null;
}

/**
 * As the engine has the image: the registry digest it knows under the reference's repository,
 * else its image id (an image built or loaded here, which no registry serves: it pins only on
 * this engine, as long as the engine keeps it).
 */
export function pinnedFromEngine(name: string, source: string, image: Pick<ImageInspect, 'Id' | 'RepoDigests'>): PinnedImage {
  const own = digestOf(source);
  if (own) return { name, source, digest: own, reference: source };
  const repository = repositoryOf(source);
  const match = (image.RepoDigests ?? []).find((entry) => canonical(entry.split('@')[0]) === canonical(repository));
  const digest = match ? digestOf(match) : null;
  if (digest) return { name, source, digest, reference: `${repository}@${digest}` };
  return { name, source, digest: image.Id, reference: image.Id, note: 'no registry digest: pinned to the image id on this engine' };
}

/**
 * What the registries of this service serve each image's tag as, now: a deployment's images run
 * on another engine, so the main service asks the registry, never its own engine. An image of a
 * registry this service does not know, or one that cannot be asked, is left unpinned with why.
 */
export class RegistryDigests {
  constructor(
    private readonly registries: RegistryService,
    private readonly options: { timeoutMs: number; policy?: OutboundPolicy },
  ) {}

  async pin(images: readonly { name: string; source: string }[]): Promise<PinnedImage[]> {
    const known = await this.registries.listEnabled();
    return Promise.all(images.map((image) => this.pinOne(image.name, image.source, known)));
  }

  /**
   * Whether the registry still serves a pinned `repo@sha256:…`: a text saying why not, or null
   * (also when no registry of this service can be asked: the agent's pull then says).
   */
  async lost(reference: string): Promise<string | null> {
    const digest = digestOf(reference);
    if (!digest) return null;
    const found = await this.pinOne('', reference.split('@')[0], await this.registries.listEnabled(), digest);
    if (found.digest === digest) return null;
    return found.note?.startsWith('registry "') ? `${found.note.split(' has no ')[0]} no longer has it` : null;
  }

  private async pinOne(
    name: string,
    source: string,
    known: Awaited<ReturnType<RegistryService['listEnabled']>>,
    reference?: string,
  ): Promise<PinnedImage> {
    const own = digestOf(source);
    if (own) return { name, source, digest: own, reference: source };
    const host = imageHost(source);
    const repository = repositoryOf(source);
    const registry = host
      ? known.find((r) => imagePrefix(r.endpointUrl).split('/')[0].toLowerCase() === host)
      : (known.find((r) => imagePrefix(r.endpointUrl) === '') ?? null);
    // Only registries the operator added are asked: a deploy never reaches out anywhere else.
    const target: RegistryTarget | undefined = registry
      ? { id: registry.id, name: registry.name, endpointUrl: registry.endpointUrl, credentials: this.registries.credentials(registry) }
      : undefined;
    if (!target) {
      return unpinned(
        name,
        source,
        `no registry of this service serves ${host ?? 'Docker Hub'}: add it to /registries to pin this image's digests`,
      );
    }
    const path = host ? repository.slice(host.length + 1) : repository;
    try {
      const asked = reference ?? tagOf(source);
      const digest = await manifestDigest(target, path, asked, { timeoutMs: this.options.timeoutMs, policy: this.options.policy });
      if (!digest) return unpinned(name, source, `registry "${target.name}" has no ${path}${reference ? '@' : ':'}${asked}`);
      return { name, source, digest, reference: `${repository}@${digest}` };
    } catch (error) {
      return unpinned(name, source, error instanceof DomainError ? error.message : 'the registry could not be asked');
    }
  }
}

function unpinned(name: string, source: string, note: string): PinnedImage {
  return { name, source, digest: null, reference: null, note };
}
