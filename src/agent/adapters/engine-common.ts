import { DomainError, UpstreamError, ValidationError } from '../../errors';
import type { DeployTemplate, DeployImage } from '../descriptor';

/** Labels on every object the engine adapters make, so leftovers can always be found. */
export const LABEL_KEY = 'platform.agent.key';
export const LABEL_SERVICE = 'platform.agent.service';

/** A 404 for an image or a 409 for a name is the orchestrator's failure, not a 404/409 of interface B. */
export function asUpstream(error: unknown): unknown {
  if (
    error instanceof DomainError &&
    !(error instanceof UpstreamError) &&
    !(error instanceof ValidationError) &&
    error.httpStatus !== 504
  ) {
    return new UpstreamError(`The orchestrator refused: ${error.message}`);
  }
  return error;
}

export function upstream<T>(work: Promise<T>): Promise<T> {
  return work.catch((error: unknown) => {
    throw asUpstream(error);
  });
}

/** Names in the engine allow [a-zA-Z0-9_.-]; a template image name may hold anything. */
export function safeName(name: string): string {
  return (
    name
      .replace(/[^a-zA-Z0-9_.-]+/g, '-')
      .replace(/^[-.]+/, '')
      .slice(0, 40) || 'service'
  );
}

/** Engine adapters need an image reference; the spec leaves `source` optional, so check it here. */
export function imageRef(template: DeployTemplate, image: DeployImage): string {
  const ref = image.source?.trim();
  if (!ref) {
    const index = template.images.indexOf(image);
    throw new ValidationError(`Image "${image.name}" has no source (the image to run).`, [`template.images[${index}].source`]);
  }
  return ref;
}

export function aliasesOf(template: DeployTemplate, image: DeployImage): string[] {
  const aliases = new Set([image.name]);
  for (const other of template.images) {
    for (const link of other.links ?? []) if (link.service === image.name) aliases.add(link.alias);
  }
  return [...aliases];
}

/** Fixed host ports cannot be shared by several instances on one host. */
export function checkHostPorts(template: DeployTemplate): void {
  template.images.forEach((image, i) => {
    const count = image.deployment?.count ?? 1;
    if (count > 1 && (image.ports ?? []).some((port) => port.host_port)) {
      throw new ValidationError(
        `Image "${image.name}" publishes a fixed host port and has count ${count}: its instances cannot share the port.`,
        [`template.images[${i}].deployment.count`],
      );
    }
  });
}

export function restartPolicyOf(image: DeployImage): string {
  return image.restart_policy ?? 'unless-stopped';
}

export function swarmRestartPolicy(policy: string): { Condition: 'none' | 'on-failure' | 'any'; MaxAttempts?: number } {
  const [name, retries] = policy.split(':');
  if (name === 'no') return { Condition: 'none' };
  if (name === 'on-failure') return { Condition: 'on-failure', ...(retries ? { MaxAttempts: Number(retries) } : {}) };
  return { Condition: 'any' };
}
