import type { RepoLoadError, TemplateRepo as TemplateRepoRow } from '../src/catalog/template-repo.entity';
import { builder } from './builder';
import { keysetConnection } from './connection';
import { databaseId, orNull } from './global-id';
import { Template } from './template';
import { countedList } from '../src/graphql/cost';

const LoadError = builder.objectRef<RepoLoadError>('TemplateLoadError').implement({
  description: 'A .pmx file of the repo that did not load, and why',
  fields: (t) => ({
    file: t.exposeString('file', { description: 'The file, relative to the repo root' }),
    line: t.int({ nullable: true, description: 'The 1-based line of the first problem, when known', resolve: (e) => e.line ?? null }),
    message: t.exposeString('message'),
  }),
});

export const TemplateRepo = builder
  .nodeRef<TemplateRepoRow, number>('TemplateRepo', {
    id: { resolve: (r) => r.id, parse: databaseId },
    loadOne: (id, ctx) => orNull(ctx.services.repos.get(id)),
  })
  .implement({
    description: 'A source of templates: a git URL, a local git repository or directory, or a GitHub owner/repo',
    fields: (t) => ({
      databaseId: t.exposeInt('id'),
      name: t.exposeString('name'),
      templateCount: t.exposeInt('templateCount'),
      updatedAt: t.field({ type: 'DateTime', resolve: (r) => r.updatedAt }),
      loadErrors: t.field({ type: [LoadError], resolve: (r) => r.loadErrors }),
      templates: t.loadableGroup({
        type: Template,
        description: "The repo's templates with their images; for a list of repos, one batch of queries in all",
        load: (repoIds: number[], ctx) => ctx.services.templates.ofRepos(repoIds),
        group: (view) => view.repoId!,
        resolve: (r) => r.id,
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
    ...countedList((s) => s.repos.count()),
    resolve: (_root, _args, ctx) => ctx.services.repos.list(),
  }),
  templateReposConnection: t.connection(
    {
      type: TemplateRepo,
      authScopes: { read: true },
      description: 'The template repos, a page at a time, by id (`templateRepos` lists them all)',
      resolve: (_root, args, ctx) =>
        keysetConnection(
          args,
          (w) => ctx.services.repos.page(w),
          () => ctx.services.repos.count(),
        ),
    },
    { name: 'TemplateRepoConnection' },
    { name: 'TemplateRepoEdge' },
  ),
  templateRepo: t.field({
    type: TemplateRepo,
    nullable: true,
    description: 'The repo with this databaseId; null (with a NOT_FOUND error) when there is none',
    authScopes: { read: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.repos.get(id),
  }),
}));

builder.mutationFields((t) => ({
  createTemplateRepo: t.field({
    type: TemplateRepo,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: CreateTemplateRepoInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.repos.create(input.name),
  }),
  reloadTemplateRepo: t.field({
    type: TemplateRepo,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: TemplateRepoIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.repos.reload(input.id),
  }),
  deleteTemplateRepo: t.field({
    type: TemplateRepo,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: TemplateRepoIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.repos.delete(input.id),
  }),
}));
