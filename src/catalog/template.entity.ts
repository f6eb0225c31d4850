import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { DeploymentDef, EnvDef, LinkDef, PortDef, VolumeDef, VolumesFromDef } from './template-definition';
import { TemplateRepo } from './template-repo.entity';

/** A reusable definition of a set of images, loaded from a repo or made from an app. */
export const Template = defineEntity({
  name: 'Template',
  tableName: 'templates',
  properties: {
    id: p.integer().primary(),
    name: p.string(),
    description: p.text().nullable(),
    keywords: p.text().nullable(),
    type: p.string(),
    documentation: p.text().nullable(),
    authors: p.json<string[]>().$type<string[]>(),
    source: p.string().nullable(),
    /** The repo it was loaded from; its templates go when it goes, or are replaced on reload. */
    repo: () => p.manyToOne(TemplateRepo).nullable().deleteRule('cascade'),
    /** The file of its repo it was loaded from: with the repo, its identity across reloads. */
    path: p.text().nullable(),
    /** Image names and sources, for the search vector (a generated column reads only its row). */
    imageText: p.text().default(''),
    imageCount: p.integer().default(0),
    images: () => p.oneToMany(TemplateImage).mappedBy('template').orderBy({ position: 'asc' }),
    createdAt: p.datetime().onCreate(() => new Date()),
    updatedAt: p.datetime().onCreate(() => new Date()).onUpdate(() => new Date()),
  },
});
export type Template = InferEntity<typeof Template>;

export const TemplateImage = defineEntity({
  name: 'TemplateImage',
  tableName: 'template_images',
  properties: {
    id: p.integer().primary(),
    template: () => p.manyToOne(Template).deleteRule('cascade'),
    position: p.integer(),
    name: p.string(),
    source: p.string(),
    description: p.text().nullable(),
    category: p.string().nullable(),
    type: p.string().nullable(),
    command: p.text().nullable(),
    expose: p.json<string[]>().$type<string[]>(),
    ports: p.json<PortDef[]>().$type<PortDef[]>(),
    links: p.json<LinkDef[]>().$type<LinkDef[]>(),
    environment: p.json<EnvDef[]>().$type<EnvDef[]>(),
    volumes: p.json<VolumeDef[]>().$type<VolumeDef[]>(),
    volumesFrom: p.json<VolumesFromDef[]>().$type<VolumesFromDef[]>(),
    deployment: p.json<DeploymentDef>().$type<DeploymentDef | null>().nullable(),
  },
});
export type TemplateImage = InferEntity<typeof TemplateImage>;
