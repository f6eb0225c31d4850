import type { ImageDefinition } from './template-definition';
import type { Template, TemplateImage } from './template.entity';

/**
 * What GraphQL's template types read: a stored template, or a single-image template made from a
 * registry search hit (which has no id and no dates).
 */
export interface TemplateView {
  id: number | null;
  name: string;
  description: string | null;
  keywords: string | null;
  source: string | null;
  type: string;
  imageCount: number;
  createdAt: Date | null;
  updatedAt: Date | null;
  documentation: string | null;
  images: ImageView[];
  /** The repo a stored template was loaded from, when read per repo. */
  repoId?: number | null;
  registryId?: number;
  registryName?: string;
  tags?: string[];
  starCount?: number | null;
  isOfficial?: boolean | null;
}

export type ImageView = ImageDefinition & { id: number | null };

export function templateView(template: Template): TemplateView {
  return {
    id: template.id,
    name: template.name,
    description: template.description ?? null,
    keywords: template.keywords ?? null,
    source: template.source ?? null,
    type: template.type,
    imageCount: template.imageCount,
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
    documentation: template.documentation ?? null,
    images: template.images.getItems().map(imageView),
  };
}

export function imageView(image: TemplateImage): ImageView {
  return {
    id: image.id,
    name: image.name,
    source: image.source,
    description: image.description ?? null,
    category: image.category ?? null,
    type: image.type ?? null,
    command: image.command ?? null,
    expose: image.expose,
    ports: image.ports,
    links: image.links,
    environment: image.environment,
    volumes: image.volumes,
    volumes_from: image.volumesFrom,
    deployment: image.deployment ?? null,
  };
}
