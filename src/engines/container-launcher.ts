import { containerSpec, type ServiceDefinition } from './container-spec';
import type { DockerClient } from './docker-client';
import type { ImageInspect, RegistryAuth } from './docker-types';
import { EngineNotFoundError } from './engine-errors';

/** The credentials to pull an image with, by the registry host its reference names; none for Docker Hub names. */
export type PullCredentials = (host: string) => Promise<RegistryAuth | undefined>;

/**
 * Makes containers on one engine: the image first (pulled only when the engine does not have
 * it, with the credentials of its registry), then the container from its definition. An app's
 * services and the agent's docker adapter both launch through it.
 */
export class ContainerLauncher {
  constructor(
    private readonly docker: DockerClient,
    private readonly credentials: PullCredentials = () => Promise.resolve(undefined),
  ) {}

  /** The image as the engine has it; pulled first when it is not there (never re-pulled implicitly). */
  async ensureImage(ref: string): Promise<ImageInspect> {
    const local = await this.inspect(ref);
    if (local) return local;
    await this.pull(ref);
    return this.docker.inspectImage(ref);
  }

  /** Pulls the image again (a tag may point at other bits now), with the credentials of its registry. */
  async pull(ref: string): Promise<void> {
    const host = imageHost(ref);
    await this.docker.pullImage(ref, { auth: host ? await this.credentials(host) : undefined });
  }

  /** The image, if the engine has it. */
  inspect(ref: string): Promise<ImageInspect | null> {
    return this.docker.inspectImage(ref).catch((error: unknown) => {
      if (error instanceof EngineNotFoundError) return null;
      throw error;
    });
  }

  /** A container made from its definition, not started (a name in use is the engine's 409). */
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
