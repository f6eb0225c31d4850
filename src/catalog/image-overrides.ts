import { mergeImage } from '../parts/merge';
import { Problems } from '../problems';
import type { OverrideImage } from '../parts/image';
import type { TemplateDefinition } from './template-definition';
import type { ImageDefinition } from '../parts/image';

/** By the rules of a deployment's overrides (docs/contract.md), with the `mergeImage` the agent uses. */
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
