import { createHash } from 'node:crypto';

/**
 * Names and labels of the objects the kubernetes adapter makes. Every object carries the owner
 * label and the deployment's two labels: `deployment`, fixed for the objects' lifetime (the key
 * of the generation that first made them, so names stay the same across redeploys), and `key`,
 * the current generation. Delete and redeploy find objects by these labels, never by name alone,
 * and touch nothing else in the namespace.
 */
export const LABEL_MANAGED_BY = 'app.kubernetes.io/managed-by';
export const MANAGED_BY = 'platform-agent';
export const LABEL_DEPLOYMENT = 'platform.agent/deployment';
export const LABEL_KEY = 'platform.agent/key';
export const LABEL_SERVICE = 'platform.agent/service';
/** The template's image name as given (labels cannot hold every name). */
export const ANNOTATION_IMAGE = 'platform.agent/image';

/** Service names are DNS-1035 labels, the strictest of the names used: at most 63. */
const MAX_NAME = 63;
const PREFIX = 'platform-';

/**
 * `text` as a DNS-1123 label part of at most `max` characters. A text that is one already is
 * kept; any other (upper case, other characters, too long) is cleaned and gets a hash of the
 * original, so that `Web` and `web`, or two long names with one start, stay apart.
 */
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

/** The labels of every object of a deployment's generation (and of its pods). */
export function ownerLabels(deployment: string, key: string): Record<string, string> {
  return { [LABEL_MANAGED_BY]: MANAGED_BY, [LABEL_DEPLOYMENT]: deployment, [LABEL_KEY]: key };
}

/** A label selector (`a=b,c=d`) of these labels. */
export function selector(labels: Record<string, string>): string {
  return Object.entries(labels)
    .map(([name, value]) => `${name}=${value}`)
    .join(',');
}
