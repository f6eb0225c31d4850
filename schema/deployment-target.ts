import type { DeploymentTargetView as TargetRow } from '../src/targets/deployment-target.entity';
import { maskedAuthBlob } from '../src/targets/target.service';
import { selects } from '../src/graphql/selection';
import { builder } from './builder';
import { keysetConnection } from './connection';
import { Deployment } from './deployment';
import { databaseId, orNull } from './global-id';
import { countedList } from '../src/graphql/cost';

const TargetMetadata = builder.objectRef<TargetRow>('DeploymentTargetMetadata').implement({
  description: "The agent's versions, as read when the target was added or last refreshed",
  fields: (t) => ({
    targetId: t.exposeInt('id', { description: "The target's databaseId (a value of its target: no id of its own)" }),
    agentVersion: t.string({ resolve: (r) => r.agentVersion ?? '' }),
    adapterVersion: t.string({ resolve: (r) => r.adapterVersion ?? '' }),
    adapterType: t.string({ resolve: (r) => r.adapterType ?? '' }),
    createdAt: t.field({ type: 'DateTime', resolve: (r) => r.metadataAt ?? r.createdAt }),
  }),
});

export const DeploymentTarget = builder
  .nodeRef<TargetRow, number>('DeploymentTarget', {
    id: { resolve: (r) => r.id, parse: databaseId },
    loadOne: (id, ctx) => orNull(ctx.services.targets.get(id)),
  })
  .implement({
    description: 'A remote orchestrator with an agent',
    fields: (t) => ({
      databaseId: t.exposeInt('id'),
      name: t.exposeString('name'),
      endpointUrl: t.exposeString('endpointUrl'),
      authBlob: t.string({
        description: "The agent's token with its password masked: the secret is never returned",
        resolve: (r, _args, ctx) => maskedAuthBlob(ctx.services.targets.authBlob(r)),
      }),
      metadata: t.field({ type: TargetMetadata, nullable: true, resolve: (r) => (r.metadataAt ? r : null) }),
      metadataError: t.string({
        nullable: true,
        description: 'Why the agent could not be asked for its metadata, when it could not',
        resolve: (r) => r.metadataError ?? null,
      }),
      deployments: t.field({
        type: [Deployment],
        nullable: true,
        description:
          "The agent's deployments; one request per target (with their statuses when selected), however many targets a query touches. null (with the error) when the agent cannot be read: the other targets still answer",
        resolve: (r, _args, ctx, info) => ctx.services.deployments.list(r.id, { withStatus: selects(info, 'status') }),
      }),
    }),
  });

// On Deployment, but here beside the type it points at.
builder.objectField(Deployment, 'target', (t) =>
  t.field({
    type: DeploymentTarget,
    description: 'The target it runs on',
    resolve: (d, _args, ctx) => ctx.services.targets.find(d.targetId),
  }),
);

const CreateDeploymentTargetInput = builder.inputType('CreateDeploymentTargetInput', {
  fields: (t) => ({
    name: t.string({ required: true }),
    authBlob: t.string({ required: true, description: "The agent's token, as it printed it" }),
  }),
});
const UpdateDeploymentTargetInput = builder.inputType('UpdateDeploymentTargetInput', {
  description: 'A new name and/or a new token (e.g. after the agent rotated its password); at least one',
  fields: (t) => ({
    id: t.int({ required: true }),
    name: t.string(),
    authBlob: t.string({ description: "The agent's new token: checked against the agent as a new target's is" }),
  }),
});
const DeploymentTargetIdInput = builder.inputType('DeploymentTargetIdInput', { fields: (t) => ({ id: t.int({ required: true }) }) });

builder.queryFields((t) => ({
  deploymentTargets: t.field({
    type: [DeploymentTarget],
    authScopes: { read: true },
    // The field answers with the list counted here (TargetService keeps it for the request).
    ...countedList(async (s) => (await s.targets.list()).length),
    resolve: (_root, _args, ctx) => ctx.services.targets.list(),
  }),
  deploymentTargetsConnection: t.connection(
    {
      type: DeploymentTarget,
      authScopes: { read: true },
      description: 'The deployment targets, a page at a time, by id (`deploymentTargets` lists them all)',
      resolve: (_root, args, ctx) =>
        keysetConnection(
          args,
          (w) => ctx.services.targets.page(w),
          () => ctx.services.targets.count(),
        ),
    },
    { name: 'DeploymentTargetConnection' },
    { name: 'DeploymentTargetEdge' },
  ),
  deploymentTarget: t.field({
    type: DeploymentTarget,
    nullable: true,
    description: 'The target with this databaseId; null (with a NOT_FOUND error) when there is none',
    authScopes: { read: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.targets.get(id),
  }),
}));

builder.mutationFields((t) => ({
  createDeploymentTarget: t.field({
    type: DeploymentTarget,
    errors: {},
    authScopes: { deploy: true },
    args: { input: t.arg({ type: CreateDeploymentTargetInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.targets.create(input),
  }),
  updateDeploymentTarget: t.field({
    type: DeploymentTarget,
    errors: {},
    authScopes: { deploy: true },
    description:
      'Renames the target or replaces its token in place; a token its agent refuses is a 422 naming auth_blob, and the target keeps its old one',
    args: { input: t.arg({ type: UpdateDeploymentTargetInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.targets.update(input),
  }),
  refreshDeploymentTargetMetadata: t.field({
    type: DeploymentTarget,
    errors: {},
    authScopes: { deploy: true },
    args: { input: t.arg({ type: DeploymentTargetIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.targets.refreshMetadata(input.id),
  }),
  deleteDeploymentTarget: t.field({
    type: DeploymentTarget,
    errors: {},
    authScopes: { deploy: true },
    args: { input: t.arg({ type: DeploymentTargetIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.targets.delete(input.id),
  }),
}));
