import { Problems } from '../problems';
import type { OverrideImage } from './template-shape';
import type { ImageDefinition, TemplateDefinition } from './template-definition';

/**
 * Overrides of a template's images, by the rules a deployment's follow (docs/contract.md):
 * matched by image name; environment merges by `variable`, ports by `container_port`, volumes by
 * `container_path` (same key replaces in place, a new key is appended); any other field given
 * replaces the template's. Used for an app made from a template (createApp's `imageOverrides`); the
 * agent applies a deployment's with the same `mergeImage`.
 */
export function applyImageOverrides(def: TemplateDefinition, overrides: readonly OverrideImage[]): TemplateDefinition {
  const problems = new Problems();
  overrides.forEach((override, i) => {
    if (!def.images.some((image) => image.name.trim() === override.name.trim())) {
      problems.add(`image_overrides[${i}].name`, `"${override.name}" is not an image of the template`);
    }
    if (override.deployment != null) {
      problems.add(`image_overrides[${i}].deployment`, 'a count applies to deployments, not to an app (one container per service)');
    }
  });
  problems.throwIfAny({ prefix: 'imageOverrides: ', separator: ' ' });
  return {
    ...def,
    images: def.images.map((image) =>
      overrides.filter((o) => o.name.trim() === image.name.trim()).reduce(mergeImage<ImageDefinition>, image),
    ),
  };
}

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
