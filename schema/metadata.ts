import type { ComponentVersions, PlatformMetadata } from '../src/catalog/platform.service';
import type { TemplateRepoProvider, UserInfo } from '../src/catalog/user.service';
import { builder } from './builder';

const Component = builder.objectRef<ComponentVersions>('ComponentVersions').implement({
  fields: (t) => ({ versions: t.field({ type: 'JSON', description: 'version label → detail', resolve: (c) => c.versions }) }),
});

const Platform = builder.objectRef<PlatformMetadata>('PlatformMetadata').implement({
  fields: (t) => ({
    api: t.field({ type: Component, resolve: (m) => m.api }),
    ui: t.field({ type: Component, resolve: (m) => m.ui }),
    agent: t.field({ type: Component, resolve: (m) => m.agent }),
    document: t.field({
      type: 'JSON',
      description: 'The GET /platform body: keys platform-api, platform-ui, platform-agent (not valid GraphQL names)',
      resolve: (m) => ({ 'platform-agent': m.agent, 'platform-ui': m.ui, 'platform-api': m.api }),
    }),
  }),
});

// A value of the caller's User: no `id` (Relay takes any `id` for a record's identity, and wants a string).
const Provider = builder.objectRef<TemplateRepoProvider>('TemplateRepoProvider').implement({
  fields: (t) => ({ providerId: t.exposeInt('id', { description: "interface A's provider id" }), name: t.exposeString('name') }),
});

const User = builder.objectRef<UserInfo>('User').implement({
  description: 'The caller: the user of the token, and where they can save templates',
  fields: (t) => ({
    username: t.exposeString('username'),
    email: t.string({ nullable: true, resolve: (u) => u.email }),
    repos: t.exposeStringList('repos'),
    templateRepoProviders: t.field({ type: [Provider], resolve: (u) => u.templateRepoProviders }),
    githubAccessTokenPresent: t.exposeBoolean('githubAccessTokenPresent', {
      description: 'Whether templates can be saved to GitHub (the server has GITHUB_TOKEN)',
    }),
  }),
});

const UpdateUserInput = builder.inputType('UpdateUserInput', {
  fields: (t) => ({
    email: t.string(),
    githubAccessToken: t.string({ description: 'Refused when set: the server saves to GitHub with its own GITHUB_TOKEN' }),
  }),
});

builder.queryFields((t) => ({
  platform: t.field({
    type: Platform,
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => ctx.services.platform.metadata(),
  }),
  me: t.field({
    type: User,
    authScopes: { read: true },
    resolve: (_root, _args, ctx) => ctx.services.users.me(ctx.identity),
  }),
}));

builder.mutationFields((t) => ({
  updateUser: t.field({
    type: User,
    errors: {},
    authScopes: { read: true },
    description: "The caller's own settings (PUT /user)",
    args: { input: t.arg({ type: UpdateUserInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.users.update(ctx.identity, input),
  }),
}));
