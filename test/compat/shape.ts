/**
 * Compares an answer with a fixture of the original API by shape: every member of the fixture
 * is present with the same JSON type, recursively (array elements against the fixture's first
 * element). A null in the fixture says nothing about the type, so anything matches it. Members
 * the answer has beyond the fixture's are allowed (ActiveResource ignores unknown members).
 * `ignore` lists paths (`$.metadata.adapter_is_healthy`, `[]` for any element) the UI does not read.
 */
export function shapeDiff(fixture: unknown, actual: unknown, ignore: readonly string[] = [], path = '$'): string[] {
  if (ignore.includes(path) || fixture === null) return [];
  const kind = jsonType(fixture);
  if (jsonType(actual) !== kind) return [`${path}: expected ${kind}, got ${jsonType(actual)} (${JSON.stringify(actual)?.slice(0, 80)})`];
  if (kind === 'array') {
    const [model] = fixture as unknown[];
    if (model === undefined) return [];
    const items = actual as unknown[];
    if (items.length === 0) return [`${path}: empty, so its elements' shape cannot be checked against the fixture's`];
    return items.flatMap((item) => shapeDiff(model, item, ignore, `${path}[]`));
  }
  if (kind === 'object') {
    const have = actual as Record<string, unknown>;
    return Object.entries(fixture as Record<string, unknown>).flatMap(([key, value]) => {
      const at = `${path}.${key}`;
      if (ignore.includes(at)) return [];
      if (!(key in have)) return [`${at}: missing`];
      return shapeDiff(value, have[key], ignore, at);
    });
  }
  return [];
}

function jsonType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
