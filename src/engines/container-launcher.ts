import { containerSpec, type ServiceDefinition } from './container-spec';
import type { DockerClient } from './docker-client';
import type { ImageInspect, RegistryAuth } from './docker-types';
import { EngineNotFoundError } from './engine-errors';

/** By the registry host a reference names; none for Docker Hub names. */
export type PullCredentials = (host: string) => Promise<RegistryAuth | undefined>;

export class ContainerLauncher {
  constructor(
    private readonly docker: DockerClient,
    private readonly credentials: PullCredentials = () => Promise.resolve(undefined),
  ) {}

  /** Pulled only when missing, never re-pulled implicitly. */
  async ensureImage(ref: string): Promise<ImageInspect> {
    const local = await this.inspect(ref);
    if (local) return local;
    await this.pull(ref);
    return this.docker.inspectImage(ref);
  }

  /** Again: a tag may point at other bits now. */
  async pull(ref: string): Promise<void> {
    const host = imageHost(ref);
    await this.docker.pullImage(ref, { auth: host ? await this.credentials(host) : undefined });
  }

  inspect(ref: string): Promise<ImageInspect | null> {
    return this.docker.inspectImage(ref).catch((error: unknown) => {
      if (error instanceof EngineNotFoundError) return null;
      throw error;
    });
  }

  create(definition: ServiceDefinition): Promise<{ Id: string }> {
    return this.docker.createContainer(definition.name, containerSpec(definition));
  }
}

/** `registry.example:5000/team/app:1` → `registry.example:5000`; null for Docker Hub names. */
export function imageHost(ref: string): string | null {
  const first = ref.split('/')[0];
  if (!ref.includes('/') || !(first.includes('.') || first.includes(':') || first === 'localhost')) return null;
  return first.toLowerCase();
}
