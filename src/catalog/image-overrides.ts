import { ValidationError } from '../errors';
import type { OverrideImage } from './template-shape';
import type { ImageDefinition, TemplateDefinition } from './template-definition';

/**
 * Overrides of a template's images, by the rules a deployment's follow (docs/contract.md):
 * matched by image name; environment merges by `variable`, ports by `container_port`, volumes by
 * `container_path` (same key replaces in place, a new key is appended); any other field given
 * replaces the template's. Used for an app made from a template (createApp's `imageOverrides`); the
 * agent applies a deployment's with the same `mergeBy`.
 */
export function applyImageOverrides(def: TemplateDefinition, overrides: readonly OverrideImage[]): TemplateDefinition {
  const problems: { field: string; message: string }[] = [];
  overrides.forEach((override, i) => {
    if (!def.images.some((image) => image.name.trim() === override.name.trim())) {
      problems.push({ field: `image_overrides[${i}].name`, message: `"${override.name}" is not an image of the template` });
    }
    if (override.deployment != null) {
      problems.push({
        field: `image_overrides[${i}].deployment`,
        message: 'a count applies to deployments, not to an app (one container per service)',
      });
    }
  });
  if (problems.length > 0) {
    throw new ValidationError(
      `imageOverrides: ${problems.map((p) => `${p.field} ${p.message}`).join('; ')}`,
      problems.map((p) => p.field),
    );
  }
  return {
    ...def,
    images: def.images.map((image) => overrides.filter((o) => o.name.trim() === image.name.trim()).reduce(mergeOverride, image)),
  };
}

function mergeOverride(base: ImageDefinition, override: OverrideImage): ImageDefinition {
  const merged: ImageDefinition = { ...base };
  if (override.environment) merged.environment = mergeBy(base.environment, override.environment, (e) => e.variable);
  if (override.ports) merged.ports = mergeBy(base.ports, override.ports, (p) => String(p.container_port));
  if (override.volumes) merged.volumes = mergeBy(base.volumes, override.volumes, (v) => v.container_path);
  if (override.links) merged.links = override.links;
  if (override.volumes_from) merged.volumes_from = override.volumes_from;
  if (override.expose) merged.expose = override.expose.map(String);
  if (override.command != null) merged.command = override.command;
  if (override.description != null) merged.description = override.description;
  return merged;
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
