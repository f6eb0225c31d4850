import { templateView } from '../src/catalog/template-shape';
import { builder } from './builder';
import { Template } from './template';

const TemplateMetadataFields = (t: Parameters<Parameters<typeof builder.inputType>[1]['fields']>[0]) => ({
  name: t.string(),
  description: t.string(),
  keywords: t.string({ description: 'Comma-separated' }),
  authors: t.field({ type: 'JSON', description: 'A list of names, or one comma-separated string' }),
  type: t.string(),
  documentation: t.string(),
});

const AppTemplateInput = builder.inputType('AppTemplateInput', {
  fields: (t) => ({ appId: t.int({ required: true }), ...TemplateMetadataFields(t) }),
});
const CreateTemplateInput = builder.inputType('CreateTemplateInput', {
  fields: (t) => ({ appId: t.int({ required: true }), ...TemplateMetadataFields(t) }),
});
const SaveTemplateInput = builder.inputType('SaveTemplateInput', {
  fields: (t) => ({
    id: t.int({ required: true, description: 'The template to save' }),
    repo: t.string({ required: true, description: 'The name of one of our template repos' }),
    fileName: t.string({ description: 'Default: name, else the template name' }),
    ...TemplateMetadataFields(t),
  }),
});

const TemplatePreview = builder.objectRef<{ template: string }>('TemplatePreview').implement({
  fields: (t) => ({ template: t.exposeString('template', { description: 'The .pmx (YAML) text' }) }),
});
const SavedTemplate = builder.objectRef<{ path: string; commit?: string }>('SavedTemplate').implement({
  fields: (t) => ({
    path: t.exposeString('path', { description: 'The file, relative to the repo root' }),
    commit: t.string({ nullable: true, resolve: (s) => s.commit ?? null }),
  }),
});

builder.mutationFields((t) => ({
  previewAppTemplate: t.field({
    type: TemplatePreview,
    errors: {},
    authScopes: { read: true },
    description: 'The app as a .pmx template, not stored',
    args: { input: t.arg({ type: AppTemplateInput, required: true }) },
    resolve: async (_root, { input }, ctx) => ({ template: await ctx.services.appTemplates.preview(input.appId, input) }),
  }),
  createTemplate: t.field({
    type: Template,
    errors: {},
    authScopes: { write: true },
    description: "Stores a template made from an app's services",
    args: { input: t.arg({ type: CreateTemplateInput, required: true }) },
    resolve: async (_root, { input }, ctx) => templateView(await ctx.services.appTemplates.create(input.appId, input)),
  }),
  saveTemplate: t.field({
    type: SavedTemplate,
    errors: {},
    authScopes: { write: true },
    description: 'Writes the template as <name>.pmx into a template repo: commit and push',
    args: { input: t.arg({ type: SaveTemplateInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.appTemplates.save(input.id, input.repo, input),
  }),
}));
