interface MergeableImage {
  name: string;
  environment?: readonly { variable: string }[] | null;
  ports?: readonly { container_port: number | string }[] | null;
  volumes?: readonly { container_path: string }[] | null;
}

/** The one rule for apps and agents' descriptors (docs/contract.md): the lists merge by key, other fields replace. */
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

export function mergeBy<T>(base: readonly T[] | undefined, extra: readonly T[], key: (item: T) => string): T[] {
  const result = [...(base ?? [])];
  for (const item of extra) {
    const at = result.findIndex((existing) => key(existing) === key(item));
    if (at >= 0) result[at] = item;
    else result.push(item);
  }
  return result;
}
