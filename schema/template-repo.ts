import type { RepoLoadError, TemplateRepo as TemplateRepoRow } from '../src/catalog/template-repo.entity';
import { Template as TemplateEntity } from '../src/catalog/template.entity';
import { templateView } from '../src/catalog/template-view';
import { builder } from './builder';
import { Template } from './template';

const LoadError = builder.objectRef<RepoLoadError>('TemplateLoadError').implement({
  description: 'A .pmx file of the repo that did not load, and why',
  fields: (t) => ({ file: t.exposeString('file'), message: t.exposeString('message') }),
});

export const TemplateRepo = builder.objectRef<TemplateRepoRow>('TemplateRepo').implement({
  description: 'A source of templates: a git URL, a local git repository or directory, or a GitHub owner/repo',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    templateCount: t.exposeInt('templateCount'),
    updatedAt: t.field({ type: 'DateTime', resolve: (r) => r.updatedAt }),
    loadErrors: t.field({ type: [LoadError], resolve: (r) => r.loadErrors }),
    templates: t.field({
      type: [Template],
      resolve: async (r, _args, ctx) =>
        (await ctx.em.find(TemplateEntity, { repo: r.id }, { orderBy: { id: 'asc' }, populate: ['images'] })).map(templateView),
    }),
  }),
});

const CreateTemplateRepoInput = builder.inputType('CreateTemplateRepoInput', {
  fields: (t) => ({ name: t.string({ required: true, description: 'git URL, local path, or GitHub owner/repo' }) }),
});
const TemplateRepoIdInput = builder.inputType('TemplateRepoIdInput', { fields: (t) => ({ id: t.int({ required: true }) }) });

builder.queryFields((t) => ({
  templateRepos: t.field({
    type: [TemplateRepo],
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => ctx.services.repos.list(),
  }),
  templateRepo: t.field({
    type: TemplateRepo,
    authScopes: { read: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.repos.get(id),
  }),
}));

builder.mutationFields((t) => ({
  createTemplateRepo: t.field({
    type: TemplateRepo,
    authScopes: { write: true },
    args: { input: t.arg({ type: CreateTemplateRepoInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.repos.create(input.name),
  }),
  reloadTemplateRepo: t.field({
    type: TemplateRepo,
    authScopes: { write: true },
    args: { input: t.arg({ type: TemplateRepoIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.repos.reload(input.id),
  }),
  deleteTemplateRepo: t.field({
    type: TemplateRepo,
    authScopes: { write: true },
    args: { input: t.arg({ type: TemplateRepoIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.repos.delete(input.id),
  }),
}));
