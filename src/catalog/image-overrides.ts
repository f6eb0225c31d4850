import { mergeImage } from '../parts/merge';
import { Problems } from '../problems';
import type { OverrideImage } from '../parts/image';
import type { TemplateDefinition } from './template-definition';
import type { ImageDefinition } from '../parts/image';

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
