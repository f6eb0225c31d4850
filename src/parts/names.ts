/** Names become container names; the original's regex range also let `\` through (docs/original-system.md "Name rules"). */
export function sanitizeName(name: string): string {
  return name.replace(/[^0-9A-Za-z._-]/g, '_');
}

/** Exact matches only, unlike the original's SQL LIKE, which made `wordpress_1` beside `wordpress_blog`. */
export function uniqueName(candidate: string, existing: Iterable<string>): string {
  const taken = existing instanceof Set ? existing : new Set(existing);
  if (!taken.has(candidate)) return candidate;
  for (let n = 1; ; n += 1) {
    const name = `${candidate}_${n}`;
    if (!taken.has(name)) return name;
  }
}

export type VolumeSourceKind = 'anonymous' | 'bind' | 'named' | 'relative';

export function volumeSourceKind(hostPath: string | null | undefined): VolumeSourceKind {
  const source = hostPath?.trim() ?? '';
  if (source === '') return 'anonymous';
  if (source.startsWith('/')) return 'bind';
  if (/^[A-Za-z0-9][A-Za-z0-9_.-]*$/.test(source)) return 'named';
  return 'relative';
}

export function volumeSourceProblem(hostPath: string | null | undefined): string | null {
  if (volumeSourceKind(hostPath) !== 'relative') return null;
  return `"${hostPath}" is a relative host path: an app has no directory on the server to resolve it against; give an absolute path or a volume name`;
}
