import { redactUrls } from '../catalog/repo-git';

export interface GitContext {
  /** Credentials included, when the file gave them: never shown. */
  url: string;
  ref: string;
  subdir: string;
}

/** Docker's git URL syntax for build contexts (`#ref:dir`), plus ssh:// and file:// (under the template repos' roots). */
export function gitContext(context: string): GitContext | null {
  const text = context.trim();
  const hash = text.indexOf('#');
  const base = hash < 0 ? text : text.slice(0, hash);
  const fragment = hash < 0 ? '' : text.slice(hash + 1);
  const git =
    /^(git|ssh|file):\/\//i.test(base) ||
    /^git@/.test(base) ||
    /^github\.com\//i.test(base) ||
    (/^https?:\/\//i.test(base) && /\.git\/?$/.test(base.replace(/[?].*$/, '')));
  if (!git) return null;
  const colon = fragment.indexOf(':');
  return {
    url: /^github\.com\//i.test(base) ? `https://${base}` : base,
    ref: (colon < 0 ? fragment : fragment.slice(0, colon)).trim(),
    subdir: (colon < 0 ? '' : fragment.slice(colon + 1)).trim(),
  };
}

/** Any URL-like context, git or not: nothing of the server's own disk. */
export function isRemoteContext(context: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(context.trim()) || /^git@/.test(context.trim()) || /^github\.com\//i.test(context.trim());
}

/** Without credentials. */
export function contextLabel(context: string): string {
  return redactUrls(context.trim());
}
