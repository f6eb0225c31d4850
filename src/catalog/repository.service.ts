import type { OutboundPolicy } from './outbound-policy';
import type { DockerClient } from '../engines/docker-client';
import { NotFoundError, ValidationError } from '../errors';
import { registryTags } from './registry-client';
import type { RegistryService } from './registry.service';

export interface RepositoryTags {
  id: string;
  tags: string[];
}

/** The tags of one image repository: on the local engine, or in one of the registries. */
export class RepositoryService {
  constructor(
    private readonly registries: RegistryService,
    private readonly docker: DockerClient,
    private readonly timeoutMs: number,
    private readonly policy?: OutboundPolicy,
  ) {}

  async tags(name: string, options: { local?: boolean | null; registryId?: number | null }): Promise<RepositoryTags> {
    const repository = name.trim();
    if (!repository || /[\s:@]/.test(repository)) throw new ValidationError('name must be an image repository name without tag', ['name']);
    if (options.local) return { id: repository, tags: await this.localTags(repository) };
    if (options.registryId === null || options.registryId === undefined) {
      throw new ValidationError('registry_id is required unless local is true', ['registry_id']);
    }
    const registry = await this.registries.get(options.registryId);
    const { username, password, token } = this.registries.credentials(registry);
    const target = {
      id: registry.id,
      name: registry.name,
      endpointUrl: registry.endpointUrl,
      credentials: { username: username ?? undefined, password: password ?? undefined, token: token ?? undefined },
    };
    return { id: repository, tags: await registryTags(target, repository, { timeoutMs: this.timeoutMs, policy: this.policy }) };
  }

  private async localTags(repository: string): Promise<string[]> {
    const images = await this.docker.listImages(repository);
    const tags = images
      .flatMap((image) => image.RepoTags ?? [])
      .filter((ref) => ref.slice(0, ref.lastIndexOf(':')) === repository)
      .map((ref) => ref.slice(ref.lastIndexOf(':') + 1));
    if (tags.length === 0) throw new NotFoundError(`no local image of ${repository}`, ['name']);
    return [...new Set(tags)].sort();
  }
}
