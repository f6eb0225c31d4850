/**
 * Service and app names (docs/original-system.md "Name rules"): they become container names, so
 * only `0-9 A-Z a-z . _ -` survive. The original's regex range also let `\` through; we don't.
 */
export function sanitizeName(name: string): string {
  return name.replace(/[^0-9A-Za-z._-]/g, '_');
}

/**
 * `candidate`, or `candidate_1`, `candidate_2`, ... whichever is first not in `existing`.
 * Exact matches only: the original counted names *starting with* the candidate (SQL LIKE), so
 * `wordpress` became `wordpress_1` when only `wordpress_blog` existed.
 */
export function uniqueName(candidate: string, existing: Iterable<string>): string {
  const taken = existing instanceof Set ? existing : new Set(existing);
  if (!taken.has(candidate)) return candidate;
  for (let n = 1; ; n += 1) {
    const name = `${candidate}_${n}`;
    if (!taken.has(name)) return name;
  }
}

/** How a volume's `host_path` is read: none (anonymous), a host path, a named volume, or a relative path. */
export type VolumeSourceKind = 'anonymous' | 'bind' | 'named' | 'relative';

export function volumeSourceKind(hostPath: string | null | undefined): VolumeSourceKind {
  const source = hostPath?.trim() ?? '';
  if (source === '') return 'anonymous';
  if (source.startsWith('/')) return 'bind';
  if (/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(source)) return 'named';
  return 'relative';
}

/** Why a volume's host path cannot be used as given, or null. */
export function volumeSourceProblem(hostPath: string | null | undefined): string | null {
  if (volumeSourceKind(hostPath) !== 'relative') return null;
  return `"${hostPath}" is a relative host path: an app has no directory on the server to resolve it against; give an absolute path or a volume name`;
}
