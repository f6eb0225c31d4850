import { SERVICE_TEXT_PART_KEYS, type OverrideImage } from '../src/parts/image';
import type { TargetDeploymentView } from '../src/targets/target-deployment.service';
import { encodeGlobalID } from '@pothos/plugin-relay';
import { builder } from './builder';
import { databaseId, orNull } from './global-id';
import {
  envDefs,
  EnvironmentVariableInput,
  givenTextPartsByFileName,
  PortInput,
  portDefs,
  textPartInputs,
  volumeDefs,
  VolumeInput,
} from './container-parts';

// A value of its deployment: orchestrator ids repeat across targets, so it has no `id` of its own.
type ServiceStateShape = { id: string; actualState: string; reason?: string };

const ServiceState = builder.objectRef<ServiceStateShape>('DeploymentServiceState').implement({
  fields: (t) => ({
    orchestratorId: t.exposeString('id', { description: 'The orchestrator id of the service (unique only within its target)' }),
    actualState: t.exposeString('actualState', {
      description: 'pending, running, stopped, failed, not found, error; or an external adapter’s own word',
    }),
    reason: t.string({
      nullable: true,
      description:
        'Why the service is in its state, as the orchestrator says (`ImagePullBackOff: Back-off pulling image "x"`); null when it says nothing (the docker, swarm and http adapters)',
      resolve: (s) => s.reason ?? null,
    }),
  }),
});

export const DeploymentStatus = builder.objectRef<{ services: ServiceStateShape[] }>('DeploymentStatus').implement({
  fields: (t) => ({ services: t.field({ type: [ServiceState], resolve: (s) => s.services }) }),
});

const ServiceName = builder.objectRef<string>('DeploymentServiceId').implement({
  fields: (t) => ({ name: t.string({ resolve: (id) => id }) }),
});

/**
 * Its global id is its target's and its own: agents number their deployments independently, so
 * deployment 1 of one target is not deployment 1 of another.
 */
export const Deployment = builder
  .nodeRef<TargetDeploymentView, { targetId: number; id: number }>('Deployment', {
    id: { resolve: (d) => `${d.targetId}:${d.id}`, parse: deploymentKey },
    loadOne: ({ targetId, id }, ctx) => orNull(ctx.services.deployments.get(targetId, id)),
  })
  .implement({
    description: 'A template deployed to a target, as its agent reports it',
    fields: (t) => ({
      databaseId: t.exposeInt('id', { description: "The agent's id for it: unique only within its target" }),
      name: t.string({ nullable: true, resolve: (d, _args, ctx) => ctx.services.deployments.listed(d, 'name') }),
      template: t.int({
        nullable: true,
        description: 'The databaseId of the template deployed',
        resolve: (d, _args, ctx) => ctx.services.deployments.listed(d, 'template'),
      }),
      serviceIds: t.field({
        type: [ServiceName],
        nullable: true,
        description: 'null (with the error) when its agent cannot be read',
        resolve: async (d, _args, ctx) => d.serviceIds ?? (await status(d, ctx)).services.map((s) => s.id),
      }),
      status: t.field({
        type: DeploymentStatus,
        nullable: true,
        description: 'null (with the error) when its agent cannot be read',
        resolve: (d, _args, ctx) => status(d, ctx),
      }),
    }),
  });

function deploymentKey(key: string): { targetId: number; id: number } {
  const [targetId, id] = key.split(':');
  return { targetId: databaseId(targetId ?? ''), id: databaseId(id ?? '') };
}

async function status(
  d: TargetDeploymentView,
  ctx: { services: { deployments: { get(t: number, id: number): Promise<TargetDeploymentView> } } },
) {
  return d.status ?? (await ctx.services.deployments.get(d.targetId, d.id)).status!;
}

const ImageLinkInput = builder.inputType('ImageLinkInput', {
  fields: (t) => ({ service: t.string({ required: true }), alias: t.string() }),
});
const VolumeFromInput = builder.inputType('VolumeFromInput', { fields: (t) => ({ service: t.string({ required: true }) }) });
const DeploymentCountInput = builder.inputType('DeploymentCountInput', { fields: (t) => ({ count: t.int({ required: true }) }) });

export const OverrideImageInput = builder.inputType('OverrideImageInput', {
  description: 'Overrides for one template image, matched by name',
  fields: (t) => ({
    name: t.string({ required: true }),
    ...textPartInputs(t, SERVICE_TEXT_PART_KEYS),
    expose: t.stringList(),
    ports: t.field({ type: [PortInput] }),
    links: t.field({ type: [ImageLinkInput] }),
    environment: t.field({ type: [EnvironmentVariableInput] }),
    volumes: t.field({ type: [VolumeInput] }),
    volumesFrom: t.field({ type: [VolumeFromInput] }),
    deployment: t.field({ type: DeploymentCountInput }),
  }),
});

const DeploymentOverrideInput = builder.inputType('DeploymentOverrideInput', {
  fields: (t) => ({ images: t.field({ type: [OverrideImageInput] }) }),
});

const CreateDeploymentInput = builder.inputType('CreateDeploymentInput', {
  fields: (t) => ({
    targetId: t.int({ required: true }),
    templateId: t.int({ description: 'The template to deploy; exactly one of templateId and appId' }),
    appId: t.int({
      description:
        'The app to deploy, as a template made from it would be (its services as the images); exactly one of templateId and appId',
    }),
    override: t.field({ type: DeploymentOverrideInput }),
  }),
});

const DeploymentIdInput = builder.inputType('DeploymentIdInput', {
  fields: (t) => ({ targetId: t.int({ required: true }), id: t.int({ required: true }) }),
});

const DeletedDeployment = builder.objectRef<{ targetId: number; id: number }>('DeletedDeployment').implement({
  description: 'The deployment that was removed: `deletedId` is its global id, for a client to evict it from its cache',
  fields: (t) => ({
    deletedId: t.id({ resolve: (d) => encodeGlobalID('Deployment', `${d.targetId}:${d.id}`) }),
    targetId: t.exposeInt('targetId', { description: "The target's databaseId" }),
    databaseId: t.exposeInt('id', { description: "The deployment's databaseId on its agent" }),
  }),
});

type OverrideInputShape = typeof OverrideImageInput.$inferInput;

/** GraphQL input to the domain's override images (snake_case, only what was given). */
export function overrideImages(images: readonly OverrideInputShape[] | null | undefined): OverrideImage[] {
  return (images ?? []).map((i) => ({
    name: i.name,
    ...givenTextPartsByFileName(i, SERVICE_TEXT_PART_KEYS),
    expose: i.expose ?? undefined,
    ports: i.ports ? portDefs(i.ports) : undefined,
    links: i.links?.map((l) => ({ service: l.service, alias: l.alias ?? l.service })),
    environment: i.environment ? envDefs(i.environment) : undefined,
    volumes: i.volumes ? volumeDefs(i.volumes) : undefined,
    volumes_from: i.volumesFrom?.map((v) => ({ service: v.service })),
    deployment: i.deployment ? { count: i.deployment.count } : undefined,
  }));
}

builder.queryFields((t) => ({
  deployment: t.field({
    type: Deployment,
    nullable: true,
    description: 'The deployment with this databaseId on this target; null (with the error) when it or its agent cannot be read',
    authScopes: { read: true },
    args: { targetId: t.arg.int({ required: true }), id: t.arg.int({ required: true }) },
    resolve: (_root, { targetId, id }, ctx) => ctx.services.deployments.get(targetId, id),
  }),
}));

builder.mutationFields((t) => ({
  createDeployment: t.field({
    type: Deployment,
    errors: {},
    authScopes: { deploy: true },
    args: { input: t.arg({ type: CreateDeploymentInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.deployments.create(input.targetId, input, overrideImages(input.override?.images)),
  }),
  redeployDeployment: t.field({
    type: Deployment,
    errors: {},
    authScopes: { deploy: true },
    args: { input: t.arg({ type: DeploymentIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.deployments.redeploy(input.targetId, input.id),
  }),
  deleteDeployment: t.field({
    type: DeletedDeployment,
    errors: {},
    authScopes: { deploy: true },
    args: { input: t.arg({ type: DeploymentIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.deployments.delete(input.targetId, input.id),
  }),
}));
