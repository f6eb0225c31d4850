import type { DeployHook as HookRow, DeployHookCall as CallRow } from '../src/hooks/hook.entity';
import type { IssuedHook } from '../src/hooks/hook.service';
import { HOOK_KINDS } from '../src/hooks/hook.entity';
import { App } from './app';
import { builder } from './builder';
import { databaseId, orNull } from './global-id';

const HookKind = builder.enumType('HookKind', {
  description:
    'How the sender signs: github (X-Hub-Signature-256), gitlab (X-Gitlab-Token), registry (Authorization: Bearer, a distribution notification), generic (X-Platform-Signature: sha256=…)',
  values: HOOK_KINDS,
});

const DeployHookCall = builder.objectRef<CallRow>('DeployHookCall').implement({
  description: 'One call a hook received, and what came of it',
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    deliveryId: t.string({
      nullable: true,
      description: "The sender's id of the delivery (a retry with it is not run again)",
      resolve: (c) => c.deliveryId ?? null,
    }),
    event: t.string({ nullable: true, resolve: (c) => c.event ?? null }),
    status: t.exposeString('status', { description: 'queued, done, failed or ignored' }),
    message: t.string({ nullable: true, resolve: (c) => c.message ?? null }),
    receivedAt: t.field({ type: 'DateTime', resolve: (c) => c.receivedAt }),
    finishedAt: t.field({ type: 'DateTime', nullable: true, resolve: (c) => c.finishedAt ?? null }),
  }),
});

export const DeployHook = builder
  .nodeRef<HookRow, number>('DeployHook', {
    id: { resolve: (h) => h.id, parse: databaseId },
    loadOne: (id, ctx) => orNull(ctx.services.hooks.get(id)),
  })
  .implement({
    description: 'A URL that redeploys an app or a deployment, or reloads a template repo, when its sender POSTs to it signed',
    // node(id:) reaches it too: with the scope its owner needs (HookService checks a deployment's).
    authScopes: { write: true },
    fields: (t) => ({
      databaseId: t.exposeInt('id'),
      name: t.exposeString('name'),
      kind: t.field({ type: HookKind, resolve: (h) => h.kind }),
      path: t.string({ description: 'POST here (no token: the signature authenticates)', resolve: (h) => `/hooks/${h.publicId}` }),
      url: t.string({
        description: 'The path on PUBLIC_URL; just the path when the service was not told its public address',
        resolve: (h, _args, ctx) => `${ctx.services.hooks.publicBase}/hooks/${h.publicId}`,
      }),
      appId: t.int({ nullable: true, resolve: (h) => h.app?.id ?? null }),
      targetId: t.int({ nullable: true, resolve: (h) => h.target?.id ?? null }),
      deploymentId: t.int({ nullable: true, resolve: (h) => h.deploymentId ?? null }),
      templateRepoId: t.int({ nullable: true, resolve: (h) => h.templateRepo?.id ?? null }),
      allowTag: t.exposeBoolean('allowTag', { description: 'A call may name the image tag to switch to (app hooks)' }),
      createdAt: t.field({ type: 'DateTime', resolve: (h) => h.createdAt }),
      rotatedAt: t.field({ type: 'DateTime', nullable: true, resolve: (h) => h.rotatedAt ?? null }),
      lastUsedAt: t.field({ type: 'DateTime', nullable: true, resolve: (h) => h.lastUsedAt ?? null }),
      calls: t.field({
        type: [DeployHookCall],
        description: 'The last calls, newest first',
        args: { last: t.arg.int({ defaultValue: 10 }) },
        resolve: (h, { last }, ctx) => ctx.services.hooks.calls(h.id, last ?? 10),
      }),
    }),
  });

const IssuedDeployHook = builder.objectRef<IssuedHook>('IssuedDeployHook').implement({
  description: 'A hook with its secret: shown once, when it is made or its secret rotated',
  fields: (t) => ({
    hook: t.field({ type: DeployHook, resolve: (i) => i.hook }),
    secret: t.exposeString('secret', { description: 'Shown once; stored sealed' }),
  }),
});

const CreateDeployHookInput = builder.inputType('CreateDeployHookInput', {
  description:
    'Exactly one owner: an app (write scope), a deployment (targetId and deploymentId; deploy scope) or a template repo (write scope)',
  fields: (t) => ({
    appId: t.int(),
    targetId: t.int(),
    deploymentId: t.int(),
    templateRepoId: t.int(),
    kind: t.field({ type: HookKind, defaultValue: 'generic' }),
    name: t.string(),
    allowTag: t.boolean({ description: 'App hooks: a call may name the image tag to switch to' }),
  }),
});
const DeployHookIdInput = builder.inputType('DeployHookIdInput', { fields: (t) => ({ id: t.int({ required: true }) }) });
const SetAppAutomationInput = builder.inputType('SetAppAutomationInput', {
  fields: (t) => ({
    appId: t.int({ required: true }),
    redeployOnTemplateChange: t.boolean({ required: true, description: "A git push that changes the app's template redeploys it" }),
  }),
});

builder.objectField(App, 'redeployOnTemplateChange', (t) =>
  t.boolean({
    description: 'A push to a template repo hook that changes the template this app was made from redeploys it',
    resolve: async (a, _args, ctx) => (await ctx.services.hooks.appAutomation(a.id))?.redeployOnTemplateChange ?? false,
  }),
);

builder.queryFields((t) => ({
  deployHooks: t.field({
    type: [DeployHook],
    authScopes: { write: true },
    description: "Hooks of one owner, or every hook the caller may manage (a deployment's need the deploy scope)",
    args: { appId: t.arg.int(), targetId: t.arg.int(), deploymentId: t.arg.int(), templateRepoId: t.arg.int() },
    resolve: (_root, args, ctx) => ctx.services.hooks.list(args),
  }),
  deployHook: t.field({
    type: DeployHook,
    nullable: true,
    authScopes: { write: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.hooks.get(id),
  }),
}));

builder.mutationFields((t) => ({
  createDeployHook: t.field({
    type: IssuedDeployHook,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: CreateDeployHookInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.hooks.create(input),
  }),
  rotateDeployHookSecret: t.field({
    type: IssuedDeployHook,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: DeployHookIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.hooks.rotate(input.id),
  }),
  revokeDeployHook: t.field({
    type: DeployHook,
    errors: {},
    authScopes: { write: true },
    description: 'Removes the hook: its URL answers 404 from now on',
    args: { input: t.arg({ type: DeployHookIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.hooks.revoke(input.id),
  }),
  setAppAutomation: t.field({
    type: App,
    errors: {},
    authScopes: { write: true },
    args: { input: t.arg({ type: SetAppAutomationInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.hooks.setAppAutomation(input.appId, input.redeployOnTemplateChange),
  }),
}));
