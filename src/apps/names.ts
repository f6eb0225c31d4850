/**
 * Service and app names (reference/original-api.md §10.1): they become container names, so
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
