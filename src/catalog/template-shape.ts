import { imageFromStored, imageView, IMAGE_KEYS, type ImageDefinition, type ImageView } from '../parts/image';
import type { TemplateDefinition } from './template-definition';
import type { Template, TemplateImage } from './template.entity';
import { DEFAULT_TYPE } from './template-types';

/** For an app made from one image or a compose file. */
export function bareTemplate(name: string, images: ImageDefinition[]): TemplateDefinition {
  return { name, description: null, keywords: null, type: DEFAULT_TYPE, documentation: null, authors: [], source: null, images };
}

export function storedTemplate(def: TemplateDefinition) {
  return {
    name: def.name,
    description: def.description,
    keywords: def.keywords,
    type: def.type,
    documentation: def.documentation,
    authors: def.authors,
    source: def.source,
    imageCount: def.images.length,
    imageText: imageSearchText(def.images),
  };
}

/** The template's images must be populated. */
export function templateFromStored(template: Template): TemplateDefinition {
  return {
    name: template.name,
    description: template.description ?? null,
    keywords: template.keywords ?? null,
    type: template.type,
    documentation: template.documentation ?? null,
    authors: template.authors,
    source: template.source ?? null,
    images: template.images.getItems().map((image: TemplateImage) => imageFromStored(image)),
  };
}

/** Also split at / : . _ - so `tutum/mysql:5.5` is found by "mysql"; migration 0010 fills older rows alike. */
export function imageSearchText(images: readonly Pick<ImageDefinition, 'name' | 'source'>[]): string {
  return images.map((i) => `${i.name} ${i.source} ${`${i.name} ${i.source}`.replace(/[/:._-]+/g, ' ')}`).join(' ');
}

/** A stored template, or a registry search hit's single-image template (no id, no dates). */
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
  /** Set only when read per repo. */
  repoId?: number | null;
  registryId?: number;
  registryName?: string;
  tags?: string[];
  starCount?: number | null;
  isOfficial?: boolean | null;
  isTrusted?: boolean | null;
}

export const TEMPLATE_COLUMNS = 'id, name, description, keywords, source, type, image_count, created_at, updated_at, documentation';
export const IMAGE_COLUMNS = `id, template_id, ${IMAGE_KEYS.join(', ')}`;

export interface TemplateRow {
  id: number;
  name: string;
  description: string | null;
  keywords: string | null;
  source: string | null;
  type: string;
  image_count: number;
  created_at: string | Date;
  updated_at: string | Date;
  documentation: string | null;
  images: ImageRow[];
}

export type ImageRow = Partial<ImageDefinition> & { id: number; template_id: number };

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
    images: template.images.getItems().map((image) => imageView(imageFromStored(image), image.id)),
  };
}

export function templateRowView(row: TemplateRow): TemplateView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    keywords: row.keywords,
    source: row.source,
    type: row.type,
    imageCount: row.image_count,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    documentation: row.documentation,
    images: row.images.map((image) => imageView(image, image.id)),
  };
}

export function singleImageView(name: string, description: string | null, source: string | null, image: ImageDefinition): TemplateView {
  return {
    id: null,
    name,
    description,
    keywords: null,
    source,
    type: 'Default',
    imageCount: 1,
    createdAt: null,
    updatedAt: null,
    documentation: null,
    images: [imageView(image, null)],
  };
}
