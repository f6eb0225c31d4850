import type { App as AppRow, AppCategory } from '../src/apps/app.entity';
import type { JournalEntry as JournalEntryShape } from '../src/apps/journal';
import { builder } from './builder';
import { keysetConnection } from './connection';

export const Category = builder.objectRef<AppCategory>('Category').implement({
  description: "One of an app's categories; services belong to categories at a position",
  fields: (t) => ({ id: t.exposeInt('id'), name: t.exposeString('name'), position: t.exposeInt('position') }),
});

export const AppError = builder.objectRef<{ message: string }>('AppError').implement({
  fields: (t) => ({ message: t.exposeString('message') }),
});

export const App = builder.objectRef<AppRow>('App').implement({
  description: 'A running composition: services (one container each) made from a template, a compose file or an image',
  fields: (t) => ({
    id: t.exposeInt('id'),
    name: t.exposeString('name'),
    from: t.string({ nullable: true, resolve: (a) => a.from ?? null }),
    errors: t.field({ type: [AppError], description: "The app's own run-time failures, then each failing service's", resolve: (a, _args, ctx) => ctx.services.apps.errors(a) }),
    documentation: t.string({ nullable: true, resolve: (a) => a.documentation ?? null }),
    categories: t.field({ type: [Category], resolve: async (a) => (await a.categories.load()).getItems() }),
    composeYaml: t.string({ description: 'The app as a Compose file (services, ports, links, volumes)', resolve: (a, _args, ctx) => ctx.services.apps.composeYaml(a.id) }),
  }),
});

export const JournalEntry = builder.objectRef<JournalEntryShape>('JournalEntry').implement({
  description: "One line a service's container wrote, oldest first",
  fields: (t) => ({
    timestamp: t.exposeString('timestamp', { description: 'ISO-8601 with milliseconds' }),
    service: t.exposeString('service'),
    stream: t.exposeString('stream', { description: 'stdout or stderr' }),
    message: t.exposeString('message'),
    cursor: t.exposeString('cursor', { description: 'Pass back as `cursor` to get only the lines after this one' }),
  }),
});

const CreateAppInput = builder.inputType('CreateAppInput', {
  description: 'Exactly one source: a template, a docker-compose file, or an image (with its registry)',
  fields: (t) => ({
    templateId: t.int(),
    composeYaml: t.string(),
    image: t.string(),
    registryId: t.int(),
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
    resolve: (_root, _args, ctx) => ctx.services.apps.list(),
  }),
  appsConnection: t.connection(
    {
      type: App,
      authScopes: { read: true },
      description: 'The apps, a page at a time, by id (`apps` lists them all)',
      resolve: (_root, args, ctx) => keysetConnection(args, (w) => ctx.services.apps.page(w), () => ctx.services.apps.count()),
    },
    { name: 'AppConnection' },
    { name: 'AppEdge' },
  ),
  app: t.field({
    type: App,
    authScopes: { read: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.apps.get(id),
  }),
  appJournal: t.field({
    type: [JournalEntry],
    authScopes: { read: true },
    description: "The app's containers' output; 502 when the engine cannot be reached",
    args: { appId: t.arg.int({ required: true }), since: t.arg.string(), cursor: t.arg.string(), limit: t.arg.int() },
    resolve: (_root, { appId, ...query }, ctx) => ctx.services.apps.journal(appId, query),
  }),
}));

builder.mutationFields((t) => ({
  createApp: t.field({
    type: App,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: CreateAppInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.apps.create(input),
  }),
  updateApp: t.field({
    type: App,
    errors: {},
    authScopes: { write: true },
    description: "Renames the app or changes its documentation; its services are not touched",
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
