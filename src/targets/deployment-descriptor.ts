import type { TemplateDefinition } from '../catalog/template-definition';
import { compact, type OverrideImage } from '../parts/image';

/** Interface B's DeploymentDescriptor: the template in its file form, plus the overrides. */
export function deploymentDescriptor(templateId: number | null, def: TemplateDefinition, overrides: OverrideImage[]) {
  return {
    template: {
      // None for an app's definition: the agent then lists the deployment with no template.
      id: templateId ?? undefined,
      name: def.name,
      description: def.description ?? undefined,
      keywords: def.keywords ?? undefined,
      source: def.source ?? undefined,
      type: def.type,
      image_count: def.images.length,
      documentation: def.documentation ?? undefined,
      images: def.images.map((image) => compact(image)),
    },
    override: { images: overrides.map((image) => compact(image)) },
  };
}
