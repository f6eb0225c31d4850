import type { DeploymentStatusEvent as DeploymentStatusRow } from '../src/events/deployment-watcher';
import type { ServiceStateEvent as ServiceStateRow } from '../src/events/service-state-feed';
import { builder } from './builder';
import { Deployment, DeploymentStatus } from './deployment';
import { Service } from './service';
import type { RevisionEvent as RevisionEventRow } from '../src/history/revision-store';

export const RevisionEvent = builder.objectRef<RevisionEventRow>('RevisionEvent').implement({
  description: 'A step of a revision being deployed (its switch waiting for health), then its outcome',
  fields: (t) => ({
    appId: t.int({ nullable: true, resolve: (e) => e.appId }),
    targetId: t.int({ nullable: true, resolve: (e) => e.targetId }),
    deploymentId: t.int({ nullable: true, resolve: (e) => e.deploymentId }),
    number: t.exposeInt('number', { description: "The revision's number" }),
    outcome: t.exposeString('outcome', { description: 'in progress, succeeded, failed or rolled back' }),
    step: t.string({ nullable: true, description: 'What the switch does now, or why it failed', resolve: (e) => e.step }),
    at: t.field({ type: 'DateTime', resolve: (e) => new Date(e.at) }),
  }),
});

export const ServiceStateEvent = builder.objectRef<ServiceStateRow>('ServiceStateEvent').implement({
  description: "A service's container changed state on the engine (systemd's words, as on Service)",
  fields: (t) => ({
    service: t.field({
      type: Service,
      nullable: true,
      description: 'The service as it is now (a normalized cache updates itself from it); null once it is removed',
      resolve: (e, _args, ctx) => ctx.services.subscriptions.service(e),
    }),
    appId: t.exposeInt('appId', { description: "The app's databaseId" }),
    serviceId: t.exposeInt('serviceId', { description: "The service's databaseId" }),
    loadState: t.string({ nullable: true, resolve: (e) => e.loadState }),
    activeState: t.string({ nullable: true, resolve: (e) => e.activeState }),
    subState: t.string({ nullable: true, resolve: (e) => e.subState }),
    at: t.field({ type: 'DateTime', description: 'When the engine reported it', resolve: (e) => new Date(e.at) }),
  }),
});

export const DeploymentStatusEvent = builder.objectRef<DeploymentStatusRow>('DeploymentStatusEvent').implement({
  description: "A deployment's status as its agent reports it: first the current one, then each change",
  fields: (t) => ({
    deployment: t.field({
      type: Deployment,
      nullable: true,
      description: 'The deployment with this status (a normalized cache updates itself from it); null when its agent could not be read',
      resolve: (e) => (e.status ? { targetId: e.targetId, id: e.id, status: e.status } : null),
    }),
    targetId: t.exposeInt('targetId', { description: "The target's databaseId" }),
    deploymentId: t.exposeInt('id', { description: "The deployment's databaseId on its agent (an event has no id of its own)" }),
    status: t.field({
      type: DeploymentStatus,
      nullable: true,
      description: 'null when the agent could not be read (see error)',
      resolve: (e) => e.status ?? null,
    }),
    error: t.string({
      nullable: true,
      description: 'Why the agent could not be read (unreachable, deployment removed)',
      resolve: (e) => e.error,
    }),
    at: t.field({ type: 'DateTime', description: 'When the agent was read', resolve: (e) => new Date(e.at) }),
  }),
});

builder.subscriptionFields((t) => ({
  serviceStateChanged: t.field({
    type: ServiceStateEvent,
    authScopes: { read: true },
    description: "State changes of services' containers, from the engine's event stream; every service, or one app's, or one service",
    args: { appId: t.arg.int(), serviceId: t.arg.int() },
    subscribe: (_root, args, ctx) => ctx.services.subscriptions.serviceStates(args),
    resolve: (event) => event,
  }),
  revisionChanged: t.field({
    type: RevisionEvent,
    authScopes: { read: true },
    description: "One app's or one deployment's revisions as they are deployed: each step, then the outcome",
    args: { appId: t.arg.int(), targetId: t.arg.int(), deploymentId: t.arg.int() },
    subscribe: (_root, args, ctx) => ctx.services.subscriptions.revisions(args),
    resolve: (event) => event,
  }),
  deploymentStatusChanged: t.field({
    type: DeploymentStatusEvent,
    authScopes: { read: true },
    description: "A deployment's status: the current one, then each change seen by polling its agent",
    args: { targetId: t.arg.int({ required: true }), id: t.arg.int({ required: true }) },
    subscribe: (_root, { targetId, id }, ctx) => ctx.services.subscriptions.deploymentStatus(targetId, id),
    resolve: (event) => event,
  }),
}));
