import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamp, updatedTimestamp } from '../db/timestamps';
import type { DeploymentDef, EnvDef, LinkDef, PortDef, VolumeDef, VolumesFromDef } from '../parts/image';
import { TemplateRepo } from './template-repo.entity';
import { imageTextColumns } from '../parts/columns';

/** A reusable definition of a set of images, loaded from a repo or made from an app. */
export const Template = defineEntity({
  name: 'Template',
  tableName: 'templates',
  indexes: [
    { name: 'templates_repo_id_idx', properties: ['repo'] },
    // Search filters by ILIKE '%term%' on name and keywords; trigram indexes serve them.
    { name: 'templates_name_trgm_idx', expression: 'create index templates_name_trgm_idx on templates using gin (name gin_trgm_ops)' },
    {
      name: 'templates_keywords_trgm_idx',
      expression: 'create index templates_keywords_trgm_idx on templates using gin (keywords gin_trgm_ops)',
    },
    // A repo template's identity across reloads (migration 0010); templates of POST /templates have no path.
    {
      name: 'templates_repo_path_idx',
      expression: 'create unique index templates_repo_path_idx on templates (repo_id, path) where repo_id is not null and path is not null',
    },
  ],
  properties: {
    id: p.integer().primary(),
    name: p.text(),
    description: p.text().nullable(),
    keywords: p.text().nullable(),
    type: p.text().default('Default'),
    documentation: p.text().nullable(),
    authors: p.json<string[]>().$type<string[]>().defaultRaw(`'[]'`),
    source: p.text().nullable(),
    /** The repo it was loaded from; its templates go when it goes, or are replaced on reload. */
    repo: () => p.manyToOne(TemplateRepo).nullable().deleteRule('cascade').updateRule('no action'),
    /** The file of its repo it was loaded from: with the repo, its identity across reloads. */
    path: p.text().nullable(),
    /** Image names and sources, for the search vector (a generated column reads only its row). */
    imageText: p.text().default(''),
    imageCount: p.integer().default(0),
    images: () => p.oneToMany(TemplateImage).mappedBy('template').orderBy({ position: 'asc' }),
    createdAt: timestamp(),
    updatedAt: updatedTimestamp(),
  },
});
export type Template = InferEntity<typeof Template>;

export const TemplateImage = defineEntity({
  name: 'TemplateImage',
  tableName: 'template_images',
  indexes: [{ name: 'template_images_template_id_idx', properties: ['template', 'position'] }],
  properties: {
    id: p.integer().primary(),
    template: () => p.manyToOne(Template).deleteRule('cascade').updateRule('no action'),
    position: p.integer(),
    name: p.text(),
    source: p.text(),
    ...imageTextColumns(),
    expose: p.json<string[]>().$type<string[]>().defaultRaw(`'[]'`),
    ports: p.json<PortDef[]>().$type<PortDef[]>().defaultRaw(`'[]'`),
    links: p.json<LinkDef[]>().$type<LinkDef[]>().defaultRaw(`'[]'`),
    environment: p.json<EnvDef[]>().$type<EnvDef[]>().defaultRaw(`'[]'`),
    volumes: p.json<VolumeDef[]>().$type<VolumeDef[]>().defaultRaw(`'[]'`),
    volumesFrom: p.json<VolumesFromDef[]>().$type<VolumesFromDef[]>().defaultRaw(`'[]'`),
    deployment: p.json<DeploymentDef>().$type<DeploymentDef | null>().nullable(),
  },
});
export type TemplateImage = InferEntity<typeof TemplateImage>;
