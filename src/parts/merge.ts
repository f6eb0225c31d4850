/** How an override of an image merges into it: the one rule for an app's template images and a deployment's descriptor. */

/** What an image needs to be merged: the three lists merged by key (the rest are replaced). */
interface MergeableImage {
  name: string;
  environment?: readonly { variable: string }[] | null;
  ports?: readonly { container_port: number | string }[] | null;
  volumes?: readonly { container_path: string }[] | null;
}

/**
 * One override into its image (docs/contract.md): environment merges by `variable`, ports by
 * `container_port`, volumes by `container_path` (same key replaces in place, a new key is
 * appended); any other field given replaces the image's. For an app's template images and for an
 * agent's descriptor alike.
 */
export function mergeImage<T extends MergeableImage>(base: T, override: Partial<T>): T {
  const merged = { ...base } as Record<string, unknown>;
  for (const [key, value] of Object.entries(override)) {
    if (value === undefined || key === 'name') continue;
    if (key === 'environment') merged.environment = mergeBy(base.environment ?? [], override.environment!, (e) => e.variable);
    else if (key === 'ports') merged.ports = mergeBy(base.ports ?? [], override.ports!, (p) => String(p.container_port));
    else if (key === 'volumes') merged.volumes = mergeBy(base.volumes ?? [], override.volumes!, (v) => v.container_path);
    else merged[key] = value;
  }
  return merged as T;
}

/** `base` with each of `extra` replacing the member of the same key in place, or appended. */
export function mergeBy<T>(base: readonly T[] | undefined, extra: readonly T[], key: (item: T) => string): T[] {
  const result = [...(base ?? [])];
  for (const item of extra) {
    const at = result.findIndex((existing) => key(existing) === key(item));
    if (at >= 0) result[at] = item;
    else result.push(item);
  }
  return result;
}
