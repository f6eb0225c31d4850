import { createHash } from 'node:crypto';

/**
 * `deployment` is the key of the generation that first made the objects, so names stay across
 * redeploys; `key` is the current one. Delete and redeploy find objects by label, never by name alone.
 */
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = 'platform-agent';
export const LABEL_DEPLOYMENT = 'platform.agent/deployment';
export const LABEL_KEY = 'platform.agent/key';
export const LABEL_SERVICE = 'platform.agent/service';
/** The image name as given: labels cannot hold every name. */
export const ANNOTATION_IMAGE = 'platform.agent/image';

/** Service names are DNS-1035 labels, the strictest of the names used: at most 63. */
const MAX_NAME = 63;
const PREFIX = 'platform-';

/** A DNS-1123 label is kept; any other text is cleaned and gets a hash of the original, so `Web` and `web` stay apart. */
export function dnsPart(text: string, max: number): string {
  const cleaned = text
    .toLowerCase()
    .replace(/[^a-z0-9-]+/g, '-')
    .replace(/-+/g, '-')
    .replace(/^-+|-+$/g, '');
  if (cleaned === text && cleaned.length > 0 && cleaned.length <= max) return cleaned;
  const hash = createHash('sha256').update(text).digest('hex').slice(0, 6);
  const head = cleaned.slice(0, Math.max(0, max - hash.length - 1)).replace(/-+$/, '');
  return head ? `${head}-${hash}` : hash;
}

/** `platform-<deployment>-<parts>`, a valid name of any kind of object (63 at most, starts with a letter). */
export function objectName(deployment: string, ...parts: string[]): string {
  const fixed = `${PREFIX}${deployment}-`;
  return `${fixed}${dnsPart(parts.join('-'), MAX_NAME - fixed.length)}`;
}

export function ownerLabels(deployment: string, key: string): Record<string, string> {
  return { [LABEL_MANAGED_BY]: MANAGED_BY, [LABEL_DEPLOYMENT]: deployment, [LABEL_KEY]: key };
}

export function selector(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([name, value]) => `${name}=${value}`)
    .join(',');
}
