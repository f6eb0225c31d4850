import { TEMPLATE_TYPES } from '../src/catalog/template-types';
import { templateView, type ImageView, type TemplateView } from '../src/catalog/template-view';
import { builder } from './builder';
import { keysetConnection } from './connection';
import { EnvironmentVariable, ImageLink, Port, Volume, VolumeFrom } from './container-parts';

export const Image = builder.objectRef<ImageView>('Image').implement({
  description: 'One image of a template: becomes one service of an app',
  fields: (t) => ({
    id: t.int({ nullable: true, resolve: (i) => i.id }),
    category: t.string({ nullable: true, resolve: (i) => i.category }),
    name: t.exposeString('name'),
    source: t.exposeString('source'),
    description: t.string({ nullable: true, resolve: (i) => i.description }),
    type: t.string({ nullable: true, resolve: (i) => i.type }),
    expose: t.exposeStringList('expose'),
    ports: t.field({ type: [Port], resolve: (i) => i.ports }),
    links: t.field({ type: [ImageLink], resolve: (i) => i.links }),
    environment: t.field({ type: [EnvironmentVariable], resolve: (i) => i.environment }),
    volumes: t.field({ type: [Volume], resolve: (i) => i.volumes }),
    volumesFrom: t.field({ type: [VolumeFrom], resolve: (i) => i.volumes_from }),
    command: t.string({ nullable: true, resolve: (i) => i.command }),
    deploymentCount: t.int({ nullable: true, resolve: (i) => i.deployment?.count ?? null }),
  }),
});

/** The fields every template-shaped result has, stored or made from a registry image. */
export const TemplateFields = builder.interfaceRef<TemplateView>('TemplateFields').implement({
  fields: (t) => ({
    id: t.int({ nullable: true, description: 'null for a registry image', resolve: (v) => v.id }),
    createdAt: t.field({ type: 'DateTime', nullable: true, resolve: (v) => v.createdAt }),
    updatedAt: t.field({ type: 'DateTime', nullable: true, resolve: (v) => v.updatedAt }),
    name: t.exposeString('name'),
    description: t.string({ nullable: true, resolve: (v) => v.description }),
    keywords: t.string({ nullable: true, resolve: (v) => v.keywords }),
    source: t.string({ nullable: true, resolve: (v) => v.source }),
    type: t.exposeString('type'),
    imageCount: t.exposeInt('imageCount'),
    documentation: t.string({ nullable: true, resolve: (v) => v.documentation }),
    images: t.field({ type: [Image], resolve: (v) => v.images }),
  }),
});

export const Template = builder.objectRef<TemplateView>('Template').implement({
  description: 'A reusable definition of a set of images',
  interfaces: [TemplateFields],
  isTypeOf: (v) => (v as TemplateView).id !== null,
  fields: (t) => ({
    id: t.int({ resolve: (v) => v.id as number }),
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
    resolve: (_root, _args, ctx) => ctx.services.templates.listViews(),
  }),
  templatesConnection: t.connection(
    {
      type: Template,
      authScopes: { read: true },
      description: 'The templates with their images, a page at a time, by id (`templates` lists them all)',
      resolve: (_root, args, ctx) => keysetConnection(args, (w) => ctx.services.templates.pageViews(w), () => ctx.services.templates.count()),
    },
    { name: 'TemplateConnection' },
    { name: 'TemplateEdge' },
  ),
  template: t.field({
    type: Template,
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
