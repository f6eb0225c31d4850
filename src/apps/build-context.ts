import { redactUrls } from '../catalog/repo-git';

/** A compose `build.context` that is a git repository: what to fetch, and where in it to build. */
export interface GitContext {
  /** What git fetches (credentials included, when the file gave them: never shown). */
  url: string;
  /** `#ref`: a branch, a tag or a commit; empty for the remote's HEAD. */
  ref: string;
  /** `#ref:dir`: the context's directory in the repository; empty for its root. */
  subdir: string;
}

/**
 * Docker's git URL syntax for build contexts (`docker build`'s and compose's): `git://…`,
 * `git@host:path`, `github.com/owner/repo`, an http(s) URL whose path ends in `.git`, plus
 * `ssh://…` and `file://…` (a repository on the server, under the template repos' roots), each
 * with an optional `#ref` or `#ref:dir`.
 */
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

/** Any URL-like context (a git one or not): nothing of the server's own disk. */
export function isRemoteContext(context: string): boolean {
  return /^[a-z][a-z0-9+.-]*:\/\//i.test(context.trim()) || /^git@/.test(context.trim()) || /^github\.com\//i.test(context.trim());
}

/** A context as it may be shown (messages, the journal, the service's options): no credentials. */
export function contextLabel(context: string): string {
  return redactUrls(context.trim());
}
