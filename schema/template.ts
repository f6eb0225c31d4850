import { TEMPLATE_TYPES } from '../src/catalog/template-types';
import { templateView, type TemplateView } from '../src/catalog/template-shape';
import { TEXT_FIELDS, TEXT_PARTS, type ImageView } from '../src/parts/image';
import { builder } from './builder';
import { keysetConnection } from './connection';
import { databaseId, orNull } from './global-id';
import { EnvironmentVariable, ImageLink, Port, Volume, VolumeFrom } from './container-parts';
import { countedList } from '../src/graphql/cost';

export const Image = builder.objectRef<ImageView>('Image').implement({
  description: 'One image of a template: becomes one service of an app',
  // Exposed, not resolved: see ImageView.
  fields: (t) => ({
    databaseId: t.exposeInt('id', {
      nullable: true,
      description: 'null for a registry image; an image is a value of its template, with no global id',
    }),
    name: t.exposeString('name'),
    source: t.exposeString('source'),
    ...Object.fromEntries(
      TEXT_FIELDS.map(([key, name]) => [name, t.exposeString(name, { nullable: true, description: TEXT_PARTS[key].description })]),
    ),
    expose: t.exposeStringList('expose'),
    ports: t.expose('ports', { type: [Port] }),
    links: t.expose('links', { type: [ImageLink] }),
    environment: t.expose('environment', { type: [EnvironmentVariable] }),
    volumes: t.expose('volumes', { type: [Volume] }),
    volumesFrom: t.expose('volumesFrom', { type: [VolumeFrom] }),
    deploymentCount: t.int({ nullable: true, resolve: (i) => i.deployment?.count ?? null }),
  }),
});

/** The fields every template-shaped result has, stored or made from a registry image. */
export const TemplateFields = builder.interfaceRef<TemplateView>('TemplateFields').implement({
  fields: (t) => ({
    databaseId: t.exposeInt('id', { nullable: true, description: "interface A's id; null for a registry image, which has no identity" }),
    createdAt: t.expose('createdAt', { type: 'DateTime', nullable: true }),
    updatedAt: t.expose('updatedAt', { type: 'DateTime', nullable: true }),
    name: t.exposeString('name'),
    description: t.exposeString('description', { nullable: true }),
    keywords: t.exposeString('keywords', { nullable: true }),
    source: t.exposeString('source', { nullable: true }),
    type: t.exposeString('type'),
    imageCount: t.exposeInt('imageCount'),
    documentation: t.exposeString('documentation', { nullable: true }),
    images: t.expose('images', { type: [Image] }),
  }),
});

export const Template = builder
  .nodeRef<TemplateView, number>('Template', {
    id: { resolve: (v) => v.id as number, parse: databaseId },
    loadOne: (id, ctx) => orNull(ctx.services.templates.getView(id)),
  })
  .implement({
    description: 'A reusable definition of a set of images',
    interfaces: [TemplateFields],
    isTypeOf: (v) => isTemplateView(v) && v.id !== null,
    fields: (t) => ({
      databaseId: t.int({ resolve: (v) => v.id as number }),
      createdAt: t.field({ type: 'DateTime', resolve: (v) => v.createdAt as Date }),
      updatedAt: t.field({ type: 'DateTime', resolve: (v) => v.updatedAt as Date }),
    }),
  });

export const TemplateTypeEntry = builder.objectRef<{ name: string; default?: boolean }>('TemplateType').implement({
  fields: (t) => ({
    name: t.exposeString('name'),
    default: t.boolean({ resolve: (e) => e.default ?? false }),
  }),
});

export const KeywordCount = builder.objectRef<{ keyword: string; count: number }>('KeywordCount').implement({
  fields: (t) => ({ keyword: t.exposeString('keyword'), count: t.exposeInt('count') }),
});

const DeleteTemplateInput = builder.inputType('DeleteTemplateInput', { fields: (t) => ({ id: t.int({ required: true }) }) });

builder.queryFields((t) => ({
  templates: t.field({
    type: [Template],
    authScopes: { read: true },
    ...countedList((s) => s.templates.count()),
    resolve: (_root, _args, ctx) => ctx.services.templates.listViews(),
  }),
  templatesConnection: t.connection(
    {
      type: Template,
      authScopes: { read: true },
      description: 'The templates with their images, a page at a time, by id (`templates` lists them all)',
      resolve: (_root, args, ctx) =>
        keysetConnection(
          args,
          (w) => ctx.services.templates.pageViews(w),
          () => ctx.services.templates.count(),
        ),
    },
    { name: 'TemplateConnection' },
    { name: 'TemplateEdge' },
  ),
  template: t.field({
    type: Template,
    nullable: true,
    description: 'The template with this databaseId; null (with a NOT_FOUND error) when there is none',
    authScopes: { read: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.templates.getView(id),
  }),
  templateTypes: t.field({
    type: [TemplateTypeEntry],
    authScopes: { read: true },
    resolve: () => TEMPLATE_TYPES,
  }),
  keywords: t.field({
    type: [KeywordCount],
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => ctx.services.templates.keywords(),
  }),
}));

builder.mutationFields((t) => ({
  deleteTemplate: t.field({
    type: Template,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: DeleteTemplateInput, required: true }) },
    resolve: async (_root, { input }, ctx) => templateView(await ctx.services.templates.delete(input.id)),
  }),
}));

/**
 * A template's view, stored (with an id) or offered from a registry (without): the two types of
 * `TemplateFields` tell them apart by the id, and nothing else may pass for either.
 */
export function isTemplateView(value: unknown): value is TemplateView {
  return typeof value === 'object' && value !== null && 'imageCount' in value && 'images' in value && 'id' in value;
}
