import type { App as AppRow, AppCategory } from '../src/apps/app.entity';
import type { JournalEntry as JournalEntryShape } from '../src/apps/journal';
import { appCategories, type CategoryPlacement } from '../src/apps/service-view';
import { builder } from './builder';
import { keysetConnection } from './connection';
import { overrideImages, OverrideImageInput } from './deployment';
import { databaseId, orNull } from './global-id';
import { DEFAULT_LIMIT as JOURNAL_DEFAULT_LIMIT } from '../src/apps/journal';
import { byLimit, countedList } from '../src/graphql/cost';

export const Category = builder
  .nodeRef<AppCategory, number>('Category', {
    id: { resolve: (c) => c.id, parse: databaseId },
    loadOne: (id, ctx) => orNull(ctx.services.apps.category(id)),
  })
  .implement({
    description: "One of an app's categories. Its position is not its own: the app and each service place it (CategoryPosition)",
    fields: (t) => ({ databaseId: t.exposeInt('id'), name: t.exposeString('name') }),
  });

/**
 * A category where its owner (an app, or one service of it) places it. A value of the owner, with
 * no id of its own: the same category sits at different positions on an app and its services.
 */
export const CategoryPosition = builder.objectRef<CategoryPlacement>('CategoryPosition').implement({
  description: 'A category at the position its owner (the app, or a service) gives it',
  fields: (t) => ({
    category: t.field({ type: Category, resolve: (p) => p.category }),
    position: t.exposeInt('position'),
    categoryId: t.int({ description: "The category's databaseId (interface A's category id)", resolve: (p) => p.category.id }),
    name: t.string({ description: "The category's name", resolve: (p) => p.category.name }),
  }),
});

export const AppError = builder.objectRef<{ message: string }>('AppError').implement({
  fields: (t) => ({ message: t.exposeString('message') }),
});

export const App = builder
  .nodeRef<AppRow, number>('App', {
    id: { resolve: (a) => a.id, parse: databaseId },
    loadOne: (id, ctx) => orNull(ctx.services.apps.get(id)),
  })
  .implement({
    description: 'A running composition: services (one container each) made from a template, a compose file or an image',
    fields: (t) => ({
      databaseId: t.exposeInt('id'),
      name: t.exposeString('name'),
      from: t.string({ nullable: true, resolve: (a) => a.from ?? null }),
      errors: t.field({
        type: [AppError],
        description: "The app's own run-time failures, then each failing service's",
        resolve: (a, _args, ctx) => ctx.services.apps.errors(a),
      }),
      documentation: t.string({ nullable: true, resolve: (a) => a.documentation ?? null }),
      warnings: t.field({
        type: [AppError],
        description: 'What the source asked for that is not honoured as written (compose keys); also in errors, prefixed "warning:"',
        resolve: (a) => a.warnings ?? [],
      }),
      categories: t.field({ type: [CategoryPosition], resolve: async (a) => appCategories((await a.categories.load()).getItems()) }),
      composeYaml: t.string({
        description: 'The app as a Compose file (services, ports, links, volumes)',
        resolve: (a, _args, ctx) => ctx.services.apps.composeYaml(a.id),
      }),
    }),
  });

export const JournalEntry = builder.objectRef<JournalEntryShape>('JournalEntry').implement({
  description: "One line a service's container wrote, or of its image's build, oldest first",
  fields: (t) => ({
    timestamp: t.exposeString('timestamp', { description: 'ISO-8601 with milliseconds' }),
    service: t.exposeString('service'),
    stream: t.exposeString('stream', {
      description: "stdout or stderr; build for a line of the service's image build (written as the build runs)",
    }),
    message: t.exposeString('message'),
    cursor: t.exposeString('cursor', { description: 'Pass back as `cursor` to get only the lines after this one' }),
  }),
});

const CreateAppInput = builder.inputType('CreateAppInput', {
  description: 'Exactly one source: a template, a docker-compose file, or an image (with its registry)',
  fields: (t) => ({
    templateId: t.int(),
    imageOverrides: t.field({
      type: [OverrideImageInput],
      description:
        "With templateId: changes to the template's images before the app starts, matched by name; environment merges by variable, ports by container port, volumes by container path, other fields replace (as a deployment's override; `deployment` is refused)",
    }),
    composeYaml: t.string(),
    image: t.string(),
    registryId: t.int(),
    name: t.string({ description: "The app's name; default the compose file's `name:`, else the template's" }),
    environment: t.field({
      type: 'JSON',
      description: "Values for the compose file's ${VAR} substitutions: a mapping of names to strings",
    }),
    profiles: t.stringList({ description: 'Active compose profiles: services in other profiles are left out' }),
    composeRepoId: t.int({
      description:
        'A compose file of this template repo (with composeFile): its env_file, file secrets and build contexts are read from the repo',
    }),
    composeFile: t.string({ description: "The compose file's path in the template repo of composeRepoId" }),
  }),
});

const UpdateAppInput = builder.inputType('UpdateAppInput', {
  fields: (t) => ({ id: t.int({ required: true }), name: t.string(), documentation: t.string() }),
});

const AppIdInput = builder.inputType('AppIdInput', { fields: (t) => ({ id: t.int({ required: true }) }) });

builder.queryFields((t) => ({
  apps: t.field({
    type: [App],
    authScopes: { read: true },
    ...countedList((s) => s.apps.count()),
    resolve: (_root, _args, ctx) => ctx.services.apps.list(),
  }),
  appsConnection: t.connection(
    {
      type: App,
      authScopes: { read: true },
      description: 'The apps, a page at a time, by id (`apps` lists them all)',
      resolve: (_root, args, ctx) =>
        keysetConnection(
          args,
          (w) => ctx.services.apps.page(w),
          () => ctx.services.apps.count(),
        ),
    },
    { name: 'AppConnection' },
    { name: 'AppEdge' },
  ),
  app: t.field({
    type: App,
    nullable: true,
    authScopes: { read: true },
    description: 'The app with this databaseId; null (with a NOT_FOUND error) when there is none',
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.apps.get(id),
  }),
  appJournal: t.field({
    type: [JournalEntry],
    nullable: true,
    authScopes: { read: true },
    description:
      "The app's containers' output and its images' build lines; null with an UPSTREAM_FAILED error when the engine cannot be reached",
    args: { appId: t.arg.int({ required: true }), since: t.arg.string(), cursor: t.arg.string(), limit: t.arg.int() },
    complexity: byLimit(JOURNAL_DEFAULT_LIMIT, 10 * JOURNAL_DEFAULT_LIMIT),
    resolve: (_root, { appId, ...query }, ctx) => ctx.services.apps.journal(appId, query),
  }),
}));

builder.mutationFields((t) => ({
  createApp: t.field({
    type: App,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: CreateAppInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.apps.create({ ...input, imageOverrides: overrideImages(input.imageOverrides) }),
  }),
  updateApp: t.field({
    type: App,
    errors: {},
    authScopes: { write: true },
    description: 'Renames the app or changes its documentation; its services are not touched',
    args: { input: t.arg({ type: UpdateAppInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.apps.update(input.id, input),
  }),
  rebuildApp: t.field({
    type: App,
    errors: {},
    authScopes: { write: true },
    description: "Recreates every service's container from the stored definition",
    args: { input: t.arg({ type: AppIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.apps.rebuild(input.id),
  }),
  deleteApp: t.field({
    type: App,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: AppIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.apps.delete(input.id),
  }),
}));
