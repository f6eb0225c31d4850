/* eslint-disable */
/** Internal type. DO NOT USE DIRECTLY. */
type Exact<T extends { [key: string]: unknown }> = { [K in keyof T]: T[K] };
/** Internal type. DO NOT USE DIRECTLY. */
export type Incremental<T> = T | { [P in keyof T]?: P extends ' $fragmentName' | '__typename' ? T[P] : never };
import type { TypedDocumentNode as DocumentNode } from '@graphql-typed-document-node/core';
export type AuditFilterInput = {
  /** A token's or hook's databaseId or name, legacy-ui, or an actor kind */
  actor?: string | null | undefined;
  objectId?: string | null | undefined;
  objectType?: string | null | undefined;
  operation?: string | null | undefined;
  since?: string | null | undefined;
  until?: string | null | undefined;
};

export type CreateApiTokenInput = {
  email?: string | null | undefined;
  name: string;
  scopes: Array<Scope>;
  username?: string | null | undefined;
};

/** Exactly one source: a template, a docker-compose file, or an image (with its registry) */
export type CreateAppInput = {
  /** The compose file's path in the template repo of composeRepoId */
  composeFile?: string | null | undefined;
  /** A compose file of this template repo (with composeFile): its env_file, file secrets and build contexts are read from the repo */
  composeRepoId?: number | null | undefined;
  composeYaml?: string | null | undefined;
  /** Values for the compose file's ${VAR} substitutions: a mapping of names to strings */
  environment?: unknown;
  image?: string | null | undefined;
  /** With templateId: changes to the template's images before the app starts, matched by name; environment merges by variable, ports by container port, volumes by container path, other fields replace (as a deployment's override; `deployment` is refused) */
  imageOverrides?: Array<OverrideImageInput> | null | undefined;
  /** The app's name; default the compose file's `name:`, else the template's */
  name?: string | null | undefined;
  /** Active compose profiles: services in other profiles are left out */
  profiles?: Array<string> | null | undefined;
  registryId?: number | null | undefined;
  templateId?: number | null | undefined;
};

/** Exactly one owner: an app (write scope), a deployment (targetId and deploymentId; deploy scope) or a template repo (write scope) */
export type CreateDeployHookInput = {
  /** App hooks: a call may name the image tag to switch to */
  allowTag?: boolean | null | undefined;
  appId?: number | null | undefined;
  deploymentId?: number | null | undefined;
  kind?: HookKind | null | undefined;
  name?: string | null | undefined;
  targetId?: number | null | undefined;
  templateRepoId?: number | null | undefined;
};

export type CreateDeploymentInput = {
  /** The app to deploy, as a template made from it would be (its services as the images); exactly one of templateId and appId */
  appId?: number | null | undefined;
  override?: DeploymentOverrideInput | null | undefined;
  targetId: number;
  /** The template to deploy; exactly one of templateId and appId */
  templateId?: number | null | undefined;
};

export type CreateDeploymentTargetInput = {
  /** The agent's token, as it printed it */
  authBlob: string;
  name: string;
};

export type CreateEventSubscriptionInput = {
  enabled?: boolean | null | undefined;
  /** one or more of app.state_changed, service.state_changed, deployment.created, deployment.redeployed, deployment.rolled_back, deployment.failed, template_repo.reload_failed, target.unreachable, target.reachable */
  eventTypes: Array<string>;
  url: string;
};

export type CreateRegistryInput = {
  enabled?: boolean | null | undefined;
  endpointUrl: string;
  name: string;
  password?: string | null | undefined;
  /** A bearer or identity token, instead of username and password */
  token?: string | null | undefined;
  username?: string | null | undefined;
};

export type DeploymentCountInput = {
  count: number;
};

export type DeploymentOverrideInput = {
  images?: Array<OverrideImageInput> | null | undefined;
};

export type EnvironmentVariableInput = {
  required?: boolean | null | undefined;
  value?: string | null | undefined;
  variable: string;
};

/** The stable code of a failure (REST answers each with its HTTP status) */
export type ErrorCode =
  /** HTTP 400 */
  | 'BAD_REQUEST'
  /** HTTP 409 */
  | 'CONFLICT'
  /** HTTP 403 */
  | 'FORBIDDEN'
  /** HTTP 405 */
  | 'METHOD_NOT_ALLOWED'
  /** HTTP 404 */
  | 'NOT_FOUND'
  /** HTTP 501 */
  | 'NOT_IMPLEMENTED'
  /** HTTP 413 */
  | 'PAYLOAD_TOO_LARGE'
  /** HTTP 429 */
  | 'RATE_LIMITED'
  /** HTTP 401 */
  | 'UNAUTHENTICATED'
  /** HTTP 503 */
  | 'UNAVAILABLE'
  /** HTTP 502 */
  | 'UPSTREAM_FAILED'
  /** HTTP 504 */
  | 'UPSTREAM_TIMEOUT'
  /** HTTP 422 */
  | 'VALIDATION_FAILED';

/** How the sender signs: github (X-Hub-Signature-256), gitlab (X-Gitlab-Token), registry (Authorization: Bearer, a distribution notification), generic (X-Platform-Signature: sha256=…) */
export type HookKind =
  | 'generic'
  | 'github'
  | 'gitlab'
  | 'registry';

export type ImageLinkInput = {
  alias?: string | null | undefined;
  service: string;
};

/** Overrides for one template image, matched by name */
export type OverrideImageInput = {
  /** The command it runs, split as a shell would; null: the image's */
  command?: string | null | undefined;
  deployment?: DeploymentCountInput | null | undefined;
  /** What the image is for */
  description?: string | null | undefined;
  environment?: Array<EnvironmentVariableInput> | null | undefined;
  expose?: Array<string> | null | undefined;
  links?: Array<ImageLinkInput> | null | undefined;
  name: string;
  ports?: Array<PortInput> | null | undefined;
  /** When its containers restart: no, always, unless-stopped, on-failure[:N]; null: the engine's default (a deployment's: unless-stopped) */
  restartPolicy?: string | null | undefined;
  /** The image's kind, a free label */
  type?: string | null | undefined;
  volumes?: Array<VolumeInput> | null | undefined;
  volumesFrom?: Array<VolumeFromInput> | null | undefined;
};

export type PortInput = {
  containerPort?: string | number | null | undefined;
  hostInterface?: string | null | undefined;
  hostPort?: string | number | null | undefined;
  proto?: string | null | undefined;
};

/** read < write < deploy < admin: each scope includes the ones before it */
export type Scope =
  | 'admin'
  | 'deploy'
  | 'read'
  | 'write';

export type ServiceCategoryInput = {
  id: number;
  position?: number | null | undefined;
};

/** A link to another service of the same app, by id (`id` or `service_id`) or by name (`service`) */
export type ServiceLinkInput = {
  alias?: string | null | undefined;
  id?: string | number | null | undefined;
  service?: string | null | undefined;
  serviceId?: number | null | undefined;
};

/** A new name and/or a new token (e.g. after the agent rotated its password); at least one */
export type UpdateDeploymentTargetInput = {
  /** The agent's new token: checked against the agent as a new target's is */
  authBlob?: string | null | undefined;
  id: number;
  name?: string | null | undefined;
};

export type UpdateRegistryInput = {
  enabled?: boolean | null | undefined;
  endpointUrl?: string | null | undefined;
  id: number;
  name?: string | null | undefined;
  password?: string | null | undefined;
  /** A bearer or identity token, instead of username and password */
  token?: string | null | undefined;
  username?: string | null | undefined;
};

/** The fields to change; every list given replaces the stored one */
export type UpdateServiceInput = {
  appId: number;
  categories?: Array<ServiceCategoryInput> | null | undefined;
  /** The command it runs, split as a shell would; null: the image's */
  command?: string | null | undefined;
  /** What the image is for */
  description?: string | null | undefined;
  environment?: Array<EnvironmentVariableInput> | null | undefined;
  expose?: Array<string> | null | undefined;
  from?: string | null | undefined;
  id: number;
  links?: Array<ServiceLinkInput> | null | undefined;
  name?: string | null | undefined;
  ports?: Array<PortInput> | null | undefined;
  /** false (or "false") saves without recreating the container */
  restart?: unknown;
  /** When its containers restart: no, always, unless-stopped, on-failure[:N]; null: the engine's default (a deployment's: unless-stopped) */
  restartPolicy?: string | null | undefined;
  /** The image's kind, a free label */
  type?: string | null | undefined;
  volumes?: Array<VolumeInput> | null | undefined;
  volumesFrom?: Array<VolumesFromInput> | null | undefined;
};

export type VolumeFromInput = {
  service: string;
};

export type VolumeInput = {
  containerPath?: string | null | undefined;
  hostPath?: string | null | undefined;
};

export type VolumesFromInput = {
  service?: string | null | undefined;
  serviceId?: number | null | undefined;
};

export type ConsoleAppQueryVariables = Exact<{
  id: number;
}>;


export type ConsoleAppQuery = { app: { id: string, databaseId: number, name: string, from: string | null, documentation: string | null, errors: Array<{ message: string }>, warnings: Array<{ message: string }>, services: Array<{ id: string, databaseId: number, name: string, from: string, command: string | null, restartPolicy: string | null, activeState: string | null, subState: string | null, ports: Array<{ containerPort: string | number, hostPort: string | number | null, proto: string | null }>, environment: Array<{ variable: string, value: string }>, errors: { message: string } | null }> | null } | null };

export type ConsoleServiceStatesSubscriptionVariables = Exact<{
  appId: number;
}>;


export type ConsoleServiceStatesSubscription = { serviceStateChanged: { serviceId: number, service: { id: string, activeState: string | null, subState: string | null } | null } };

export type ConsoleAppJournalQueryVariables = Exact<{
  appId: number;
  cursor?: string | null | undefined;
}>;


export type ConsoleAppJournalQuery = { appJournal: Array<{ cursor: string, service: string, stream: string, message: string, timestamp: string }> | null };

export type ConsoleUpdateServiceMutationVariables = Exact<{
  input: UpdateServiceInput;
}>;


export type ConsoleUpdateServiceMutation = { updateService:
    | { __typename: 'BadRequestError', message: string, fields: Array<string> }
    | { __typename: 'ConflictError', message: string, fields: Array<string> }
    | { __typename: 'NotFoundError', message: string, fields: Array<string> }
    | { __typename: 'Service', id: string, command: string | null, restartPolicy: string | null, activeState: string | null, subState: string | null, ports: Array<{ containerPort: string | number, hostPort: string | number | null, proto: string | null }>, environment: Array<{ variable: string, value: string }>, errors: { message: string } | null }
    | { __typename: 'UpstreamError', message: string, fields: Array<string> }
    | { __typename: 'UpstreamTimeoutError', message: string, fields: Array<string> }
    | { __typename: 'ValidationError', message: string, fields: Array<string> }
   };

export type ConsolePreviewTemplateMutationVariables = Exact<{
  appId: number;
}>;


export type ConsolePreviewTemplateMutation = { previewAppTemplate:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'TemplatePreview', template: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleCreateTemplateMutationVariables = Exact<{
  appId: number;
  name?: string | null | undefined;
}>;


export type ConsoleCreateTemplateMutation = { createTemplate:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Template', id: string, databaseId: number, name: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleSaveTemplateMutationVariables = Exact<{
  id: number;
  repo: string;
}>;


export type ConsoleSaveTemplateMutation = { saveTemplate:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'SavedTemplate', path: string, commit: string | null }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleRepoNamesQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleRepoNamesQuery = { templateRepos: Array<{ id: string, name: string }> };

export type ConsoleDeployTargetsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleDeployTargetsQuery = { deploymentTargets: Array<{ id: string, databaseId: number, name: string }> };

export type ConsoleDeployAppMutationVariables = Exact<{
  targetId: number;
  appId: number;
}>;


export type ConsoleDeployAppMutation = { createDeployment:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'Deployment', id: string, databaseId: number }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleDeleteAppMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleDeleteAppMutation = { deleteApp:
    | { __typename: 'App' }
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleAppsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleAppsQuery = { apps: Array<{ id: string, databaseId: number, name: string, from: string | null, errors: Array<{ message: string }>, services: Array<{ id: string, databaseId: number, name: string, activeState: string | null, subState: string | null }> | null }> };

export type ConsoleAuditQueryVariables = Exact<{
  filter?: AuditFilterInput | null | undefined;
  before?: number | null | undefined;
}>;


export type ConsoleAuditQuery = { auditEvents: { next: number | null, items: Array<{ databaseId: number, at: string, actorKind: string, actorName: string | null, door: string, operation: string, objectType: string | null, objectId: string | null, outcome: string, clientAddress: string | null }> } };

export type ConsoleCatalogQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleCatalogQuery = { templateRepos: Array<{ id: string, databaseId: number, name: string, templateCount: number, updatedAt: string, loadErrors: Array<{ file: string, line: number | null, message: string }> }>, registries: Array<{ id: string, databaseId: number, name: string, endpointUrl: string, enabled: boolean, hasCredentials: boolean }> };

export type ConsoleAddRepoMutationVariables = Exact<{
  name: string;
}>;


export type ConsoleAddRepoMutation = { createTemplateRepo:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'TemplateRepo', id: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleReloadRepoMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleReloadRepoMutation = { reloadTemplateRepo:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'TemplateRepo', id: string, templateCount: number, updatedAt: string, loadErrors: Array<{ file: string, line: number | null, message: string }> }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleAddRegistryMutationVariables = Exact<{
  input: CreateRegistryInput;
}>;


export type ConsoleAddRegistryMutation = { createRegistry:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Registry', id: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleUpdateRegistryMutationVariables = Exact<{
  input: UpdateRegistryInput;
}>;


export type ConsoleUpdateRegistryMutation = { updateRegistry:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Registry', id: string, name: string, endpointUrl: string, enabled: boolean, hasCredentials: boolean }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleEventSubscriptionsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleEventSubscriptionsQuery = { eventTypes: Array<{ name: string, description: string }>, eventSubscriptions: Array<{ databaseId: number, url: string, eventTypes: Array<string>, enabled: boolean, disabledReason: string | null, pending: number, deliveries: Array<{ databaseId: number, eventId: string, eventType: string, attempt: number, status: string, responseCode: number | null, durationMs: number | null, responseExcerpt: string | null, error: string | null, at: string }> }> };

export type ConsoleCreateSubscriptionMutationVariables = Exact<{
  input: CreateEventSubscriptionInput;
}>;


export type ConsoleCreateSubscriptionMutation = { createEventSubscription:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'IssuedEventSubscription', secret: string, subscription: { databaseId: number } }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleResendDeliveryMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleResendDeliveryMutation = { resendEventDelivery:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'EventDelivery' }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleSetSubscriptionEnabledMutationVariables = Exact<{
  id: number;
  enabled: boolean;
}>;


export type ConsoleSetSubscriptionEnabledMutation = { updateEventSubscription:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'EventSubscription', databaseId: number, enabled: boolean, disabledReason: string | null }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleRevisionFieldsFragment = { number: number, action: string, rollbackOf: number | null, outcome: string, error: string | null, current: boolean, createdAt: string, deploymentId: number | null, author: { kind: string, name: string }, images: Array<{ name: string, digest: string | null, note: string | null }> };

export type ConsoleRevisionDiffFieldsFragment = { from: number, to: number, unified: string, images: Array<{ image: string, change: string, fields: Array<{ field: string, old: unknown, new: unknown, secret: boolean }> }> };

export type ConsoleAppHistoryQueryVariables = Exact<{
  id: number;
}>;


export type ConsoleAppHistoryQuery = { app: { id: string, revisions: { nodes: Array<{ number: number, action: string, rollbackOf: number | null, outcome: string, error: string | null, current: boolean, createdAt: string, deploymentId: number | null, author: { kind: string, name: string }, images: Array<{ name: string, digest: string | null, note: string | null }> }> } } | null };

export type ConsoleDeploymentHistoryQueryVariables = Exact<{
  targetId: number;
  id: number;
}>;


export type ConsoleDeploymentHistoryQuery = { deployment: { id: string, revisions: { nodes: Array<{ number: number, action: string, rollbackOf: number | null, outcome: string, error: string | null, current: boolean, createdAt: string, deploymentId: number | null, author: { kind: string, name: string }, images: Array<{ name: string, digest: string | null, note: string | null }> }> } } | null };

export type ConsoleRevisionDiffQueryVariables = Exact<{
  id: number;
  from: number;
  to: number;
}>;


export type ConsoleRevisionDiffQuery = { app: { id: string, revisionDiff: { from: number, to: number, unified: string, images: Array<{ image: string, change: string, fields: Array<{ field: string, old: unknown, new: unknown, secret: boolean }> }> } } | null };

export type ConsoleDeploymentRevisionDiffQueryVariables = Exact<{
  targetId: number;
  id: number;
  from: number;
  to: number;
}>;


export type ConsoleDeploymentRevisionDiffQuery = { deployment: { id: string, revisionDiff: { from: number, to: number, unified: string, images: Array<{ image: string, change: string, fields: Array<{ field: string, old: unknown, new: unknown, secret: boolean }> }> } } | null };

export type ConsoleRollbackAppMutationVariables = Exact<{
  appId: number;
  revision: number;
}>;


export type ConsoleRollbackAppMutation = { rollbackApp:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Revision', number: number, outcome: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleRollbackDeploymentMutationVariables = Exact<{
  targetId: number;
  deploymentId: number;
  revision: number;
}>;


export type ConsoleRollbackDeploymentMutation = { rollbackDeployment:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'Revision', number: number, outcome: string, deploymentId: number | null }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleRevisionProgressSubscriptionVariables = Exact<{
  appId?: number | null | undefined;
  targetId?: number | null | undefined;
  deploymentId?: number | null | undefined;
}>;


export type ConsoleRevisionProgressSubscription = { revisionChanged: { number: number, outcome: string, step: string | null } };

export type ConsoleHookFragment = { databaseId: number, name: string, kind: HookKind, url: string, appId: number | null, targetId: number | null, deploymentId: number | null, templateRepoId: number | null, allowTag: boolean, lastUsedAt: string | null, calls: Array<{ databaseId: number, deliveryId: string | null, event: string | null, status: string, message: string | null, receivedAt: string }> };

export type ConsoleHooksQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleHooksQuery = { deployHooks: Array<{ databaseId: number, name: string, kind: HookKind, url: string, appId: number | null, targetId: number | null, deploymentId: number | null, templateRepoId: number | null, allowTag: boolean, lastUsedAt: string | null, calls: Array<{ databaseId: number, deliveryId: string | null, event: string | null, status: string, message: string | null, receivedAt: string }> }> };

export type ConsoleCreateHookMutationVariables = Exact<{
  input: CreateDeployHookInput;
}>;


export type ConsoleCreateHookMutation = { createDeployHook:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'IssuedDeployHook', secret: string, hook: { databaseId: number, name: string, kind: HookKind, url: string, appId: number | null, targetId: number | null, deploymentId: number | null, templateRepoId: number | null, allowTag: boolean, lastUsedAt: string | null, calls: Array<{ databaseId: number, deliveryId: string | null, event: string | null, status: string, message: string | null, receivedAt: string }> } }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleRotateHookMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleRotateHookMutation = { rotateDeployHookSecret:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'IssuedDeployHook', secret: string, hook: { databaseId: number, name: string, kind: HookKind, url: string, appId: number | null, targetId: number | null, deploymentId: number | null, templateRepoId: number | null, allowTag: boolean, lastUsedAt: string | null, calls: Array<{ databaseId: number, deliveryId: string | null, event: string | null, status: string, message: string | null, receivedAt: string }> } }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleRevokeHookMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleRevokeHookMutation = { revokeDeployHook:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'DeployHook' }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleTargetQueryVariables = Exact<{
  id: number;
}>;


export type ConsoleTargetQuery = { deploymentTarget: { id: string, databaseId: number, name: string, endpointUrl: string, metadataError: string | null, metadata: { agentVersion: string, adapterType: string, adapterVersion: string } | null, deployments: Array<{ id: string, databaseId: number, name: string | null, template: number | null, status: { services: Array<{ orchestratorId: string, actualState: string, reason: string | null }> } | null }> | null } | null, templates: Array<{ id: string, databaseId: number, name: string, images: Array<{ name: string, source: string, environment: Array<{ variable: string, value: string }> }> }> };

export type ConsoleDeploymentStatusSubscriptionVariables = Exact<{
  id: number;
  targetId: number;
}>;


export type ConsoleDeploymentStatusSubscription = { deploymentStatusChanged: { error: string | null, deployment: { id: string, status: { services: Array<{ orchestratorId: string, actualState: string, reason: string | null }> } | null } | null } };

export type ConsoleDeployMutationVariables = Exact<{
  input: CreateDeploymentInput;
}>;


export type ConsoleDeployMutation = { createDeployment:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'Deployment', id: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleUpdateTargetMutationVariables = Exact<{
  input: UpdateDeploymentTargetInput;
}>;


export type ConsoleUpdateTargetMutation = { updateDeploymentTarget:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'DeploymentTarget', id: string, name: string, endpointUrl: string, metadataError: string | null, metadata: { agentVersion: string, adapterType: string, adapterVersion: string } | null }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleRedeployMutationVariables = Exact<{
  id: number;
  targetId: number;
}>;


export type ConsoleRedeployMutation = { redeployDeployment:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'Deployment', id: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleDeleteDeploymentMutationVariables = Exact<{
  id: number;
  targetId: number;
}>;


export type ConsoleDeleteDeploymentMutation = { deleteDeployment:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'DeletedDeployment' }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleTargetsQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleTargetsQuery = { deploymentTargets: Array<{ id: string, databaseId: number, name: string, endpointUrl: string, metadataError: string | null, metadata: { agentVersion: string, adapterType: string, adapterVersion: string } | null }> };

export type ConsoleAddTargetMutationVariables = Exact<{
  input: CreateDeploymentTargetInput;
}>;


export type ConsoleAddTargetMutation = { createDeploymentTarget:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'DeploymentTarget', id: string, databaseId: number }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleTemplateQueryVariables = Exact<{
  id: number;
}>;


export type ConsoleTemplateQuery = { template: { id: string, databaseId: number, name: string, description: string | null, keywords: string | null, source: string | null, documentation: string | null, images: Array<{ name: string, source: string, command: string | null, expose: Array<string>, ports: Array<{ hostPort: string | number | null, containerPort: string | number, proto: string | null }>, links: Array<{ service: string, alias: string }>, environment: Array<{ variable: string, value: string }> }> } | null };

export type ConsoleLaunchTemplateMutationVariables = Exact<{
  templateId: number;
  name?: string | null | undefined;
  imageOverrides?: Array<OverrideImageInput> | OverrideImageInput | null | undefined;
}>;


export type ConsoleLaunchTemplateMutation = { createApp:
    | { __typename: 'App', id: string, databaseId: number }
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleSearchQueryVariables = Exact<{
  q: string;
}>;


export type ConsoleSearchQuery = { search: { items: Array<
      | { __typename: 'RegistryImageTemplate', registryId: number, registryName: string, starCount: number | null, isOfficial: boolean | null, name: string, description: string | null, source: string | null, imageCount: number, images: Array<{ name: string, source: string }> }
      | { __typename: 'Template', id: string, databaseId: number, keywords: string | null, name: string, description: string | null, source: string | null, imageCount: number, images: Array<{ name: string, source: string }> }
    >, errors: Array<{ message: string }> } };

export type ConsoleCreateAppMutationVariables = Exact<{
  input: CreateAppInput;
}>;


export type ConsoleCreateAppMutation = { createApp:
    | { __typename: 'App', id: string, databaseId: number, name: string }
    | { __typename: 'BadRequestError', code: ErrorCode, message: string, fields: Array<string> }
    | { __typename: 'ConflictError', code: ErrorCode, message: string, fields: Array<string> }
    | { __typename: 'NotFoundError', code: ErrorCode, message: string, fields: Array<string> }
    | { __typename: 'UpstreamError', code: ErrorCode, message: string, fields: Array<string> }
    | { __typename: 'UpstreamTimeoutError', code: ErrorCode, message: string, fields: Array<string> }
    | { __typename: 'ValidationError', code: ErrorCode, message: string, fields: Array<string> }
   };

export type ConsoleTokensQueryVariables = Exact<{ [key: string]: never; }>;


export type ConsoleTokensQuery = { apiTokens: Array<{ id: string, databaseId: number, name: string, username: string, scopes: Array<Scope>, createdAt: string, revokedAt: string | null }> };

export type ConsoleIssueTokenMutationVariables = Exact<{
  input: CreateApiTokenInput;
}>;


export type ConsoleIssueTokenMutation = { createApiToken:
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'IssuedApiToken', token: string, apiToken: { id: string, databaseId: number, name: string, username: string, scopes: Array<Scope>, createdAt: string, revokedAt: string | null } }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export type ConsoleRevokeTokenMutationVariables = Exact<{
  id: number;
}>;


export type ConsoleRevokeTokenMutation = { revokeApiToken:
    | { __typename: 'ApiToken', id: string, revokedAt: string | null }
    | { __typename: 'BadRequestError', message: string }
    | { __typename: 'ConflictError', message: string }
    | { __typename: 'NotFoundError', message: string }
    | { __typename: 'UpstreamError', message: string }
    | { __typename: 'UpstreamTimeoutError', message: string }
    | { __typename: 'ValidationError', message: string }
   };

export const ConsoleRevisionFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleRevisionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"rollbackOf"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"deploymentId"}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"images"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"digest"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}}]}}]} as unknown as DocumentNode<ConsoleRevisionFieldsFragment, unknown>;
export const ConsoleRevisionDiffFieldsFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleRevisionDiffFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionDiff"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"unified"}},{"kind":"Field","name":{"kind":"Name","value":"images"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"image"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"fields"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"old"}},{"kind":"Field","name":{"kind":"Name","value":"new"}},{"kind":"Field","name":{"kind":"Name","value":"secret"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleRevisionDiffFieldsFragment, unknown>;
export const ConsoleHookFragmentDoc = {"kind":"Document","definitions":[{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleHook"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DeployHook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"appId"}},{"kind":"Field","name":{"kind":"Name","value":"targetId"}},{"kind":"Field","name":{"kind":"Name","value":"deploymentId"}},{"kind":"Field","name":{"kind":"Name","value":"templateRepoId"}},{"kind":"Field","name":{"kind":"Name","value":"allowTag"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"calls"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"deliveryId"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleHookFragment, unknown>;
export const ConsoleAppDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleApp"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"app"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"documentation"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"Field","name":{"kind":"Name","value":"warnings"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"Field","name":{"kind":"Name","value":"services"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"command"}},{"kind":"Field","name":{"kind":"Name","value":"restartPolicy"}},{"kind":"Field","name":{"kind":"Name","value":"activeState"}},{"kind":"Field","name":{"kind":"Name","value":"subState"}},{"kind":"Field","name":{"kind":"Name","value":"ports"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"containerPort"}},{"kind":"Field","name":{"kind":"Name","value":"hostPort"}},{"kind":"Field","name":{"kind":"Name","value":"proto"}}]}},{"kind":"Field","name":{"kind":"Name","value":"environment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"variable"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAppQuery, ConsoleAppQueryVariables>;
export const ConsoleServiceStatesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ConsoleServiceStates"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"serviceStateChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"serviceId"}},{"kind":"Field","name":{"kind":"Name","value":"service"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"activeState"}},{"kind":"Field","name":{"kind":"Name","value":"subState"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleServiceStatesSubscription, ConsoleServiceStatesSubscriptionVariables>;
export const ConsoleAppJournalDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAppJournal"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"cursor"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"appJournal"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}},{"kind":"Argument","name":{"kind":"Name","value":"cursor"},"value":{"kind":"Variable","name":{"kind":"Name","value":"cursor"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"500"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"cursor"}},{"kind":"Field","name":{"kind":"Name","value":"service"}},{"kind":"Field","name":{"kind":"Name","value":"stream"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"timestamp"}}]}}]}}]} as unknown as DocumentNode<ConsoleAppJournalQuery, ConsoleAppJournalQueryVariables>;
export const ConsoleUpdateServiceDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleUpdateService"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateServiceInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateService"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Service"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"command"}},{"kind":"Field","name":{"kind":"Name","value":"restartPolicy"}},{"kind":"Field","name":{"kind":"Name","value":"activeState"}},{"kind":"Field","name":{"kind":"Name","value":"subState"}},{"kind":"Field","name":{"kind":"Name","value":"ports"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"containerPort"}},{"kind":"Field","name":{"kind":"Name","value":"hostPort"}},{"kind":"Field","name":{"kind":"Name","value":"proto"}}]}},{"kind":"Field","name":{"kind":"Name","value":"environment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"variable"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"fields"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleUpdateServiceMutation, ConsoleUpdateServiceMutationVariables>;
export const ConsolePreviewTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsolePreviewTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"previewAppTemplate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TemplatePreview"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"template"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsolePreviewTemplateMutation, ConsolePreviewTemplateMutationVariables>;
export const ConsoleCreateTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleCreateTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createTemplate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Template"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleCreateTemplateMutation, ConsoleCreateTemplateMutationVariables>;
export const ConsoleSaveTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleSaveTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"repo"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"saveTemplate"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"repo"},"value":{"kind":"Variable","name":{"kind":"Name","value":"repo"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"SavedTemplate"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"path"}},{"kind":"Field","name":{"kind":"Name","value":"commit"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleSaveTemplateMutation, ConsoleSaveTemplateMutationVariables>;
export const ConsoleRepoNamesDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleRepoNames"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"templateRepos"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<ConsoleRepoNamesQuery, ConsoleRepoNamesQueryVariables>;
export const ConsoleDeployTargetsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleDeployTargets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deploymentTargets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}}]}}]} as unknown as DocumentNode<ConsoleDeployTargetsQuery, ConsoleDeployTargetsQueryVariables>;
export const ConsoleDeployAppDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleDeployApp"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDeployment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"targetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Deployment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleDeployAppMutation, ConsoleDeployAppMutationVariables>;
export const ConsoleDeleteAppDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleDeleteApp"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteApp"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleDeleteAppMutation, ConsoleDeleteAppMutationVariables>;
export const ConsoleAppsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleApps"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apps"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}},{"kind":"Field","name":{"kind":"Name","value":"services"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"activeState"}},{"kind":"Field","name":{"kind":"Name","value":"subState"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAppsQuery, ConsoleAppsQueryVariables>;
export const ConsoleAuditDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAudit"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"filter"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"AuditFilterInput"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"before"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"auditEvents"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"filter"},"value":{"kind":"Variable","name":{"kind":"Name","value":"filter"}}},{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}},{"kind":"Argument","name":{"kind":"Name","value":"before"},"value":{"kind":"Variable","name":{"kind":"Name","value":"before"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"next"}},{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"at"}},{"kind":"Field","name":{"kind":"Name","value":"actorKind"}},{"kind":"Field","name":{"kind":"Name","value":"actorName"}},{"kind":"Field","name":{"kind":"Name","value":"door"}},{"kind":"Field","name":{"kind":"Name","value":"operation"}},{"kind":"Field","name":{"kind":"Name","value":"objectType"}},{"kind":"Field","name":{"kind":"Name","value":"objectId"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"clientAddress"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAuditQuery, ConsoleAuditQueryVariables>;
export const ConsoleCatalogDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleCatalog"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"templateRepos"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"templateCount"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"loadErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"file"}},{"kind":"Field","name":{"kind":"Name","value":"line"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"registries"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"endpointUrl"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"hasCredentials"}}]}}]}}]} as unknown as DocumentNode<ConsoleCatalogQuery, ConsoleCatalogQueryVariables>;
export const ConsoleAddRepoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAddRepo"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createTemplateRepo"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TemplateRepo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAddRepoMutation, ConsoleAddRepoMutationVariables>;
export const ConsoleReloadRepoDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleReloadRepo"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"reloadTemplateRepo"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"TemplateRepo"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"templateCount"}},{"kind":"Field","name":{"kind":"Name","value":"updatedAt"}},{"kind":"Field","name":{"kind":"Name","value":"loadErrors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"file"}},{"kind":"Field","name":{"kind":"Name","value":"line"}},{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleReloadRepoMutation, ConsoleReloadRepoMutationVariables>;
export const ConsoleAddRegistryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAddRegistry"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateRegistryInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createRegistry"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Registry"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAddRegistryMutation, ConsoleAddRegistryMutationVariables>;
export const ConsoleUpdateRegistryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleUpdateRegistry"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateRegistryInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateRegistry"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Registry"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"endpointUrl"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"hasCredentials"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleUpdateRegistryMutation, ConsoleUpdateRegistryMutationVariables>;
export const ConsoleEventSubscriptionsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleEventSubscriptions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"eventTypes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}}]}},{"kind":"Field","name":{"kind":"Name","value":"eventSubscriptions"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"eventTypes"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}},{"kind":"Field","name":{"kind":"Name","value":"pending"}},{"kind":"Field","name":{"kind":"Name","value":"deliveries"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"IntValue","value":"10"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"eventId"}},{"kind":"Field","name":{"kind":"Name","value":"eventType"}},{"kind":"Field","name":{"kind":"Name","value":"attempt"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"responseCode"}},{"kind":"Field","name":{"kind":"Name","value":"durationMs"}},{"kind":"Field","name":{"kind":"Name","value":"responseExcerpt"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"at"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleEventSubscriptionsQuery, ConsoleEventSubscriptionsQueryVariables>;
export const ConsoleCreateSubscriptionDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleCreateSubscription"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateEventSubscriptionInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createEventSubscription"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"IssuedEventSubscription"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"subscription"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleCreateSubscriptionMutation, ConsoleCreateSubscriptionMutationVariables>;
export const ConsoleResendDeliveryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleResendDelivery"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"resendEventDelivery"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleResendDeliveryMutation, ConsoleResendDeliveryMutationVariables>;
export const ConsoleSetSubscriptionEnabledDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleSetSubscriptionEnabled"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"enabled"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Boolean"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateEventSubscription"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"enabled"},"value":{"kind":"Variable","name":{"kind":"Name","value":"enabled"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"EventSubscription"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"enabled"}},{"kind":"Field","name":{"kind":"Name","value":"disabledReason"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleSetSubscriptionEnabledMutation, ConsoleSetSubscriptionEnabledMutationVariables>;
export const ConsoleAppHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleAppHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"app"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"revisions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleRevisionFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleRevisionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"rollbackOf"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"deploymentId"}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"images"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"digest"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}}]}}]} as unknown as DocumentNode<ConsoleAppHistoryQuery, ConsoleAppHistoryQueryVariables>;
export const ConsoleDeploymentHistoryDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleDeploymentHistory"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deployment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"targetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"revisions"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"first"},"value":{"kind":"IntValue","value":"50"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"nodes"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleRevisionFields"}}]}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleRevisionFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"action"}},{"kind":"Field","name":{"kind":"Name","value":"rollbackOf"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"current"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"deploymentId"}},{"kind":"Field","name":{"kind":"Name","value":"author"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"Field","name":{"kind":"Name","value":"images"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"digest"}},{"kind":"Field","name":{"kind":"Name","value":"note"}}]}}]}}]} as unknown as DocumentNode<ConsoleDeploymentHistoryQuery, ConsoleDeploymentHistoryQueryVariables>;
export const ConsoleRevisionDiffDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleRevisionDiff"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"app"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"revisionDiff"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleRevisionDiffFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleRevisionDiffFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionDiff"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"unified"}},{"kind":"Field","name":{"kind":"Name","value":"images"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"image"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"fields"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"old"}},{"kind":"Field","name":{"kind":"Name","value":"new"}},{"kind":"Field","name":{"kind":"Name","value":"secret"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleRevisionDiffQuery, ConsoleRevisionDiffQueryVariables>;
export const ConsoleDeploymentRevisionDiffDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleDeploymentRevisionDiff"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"from"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"to"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deployment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"targetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}}},{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"revisionDiff"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"from"},"value":{"kind":"Variable","name":{"kind":"Name","value":"from"}}},{"kind":"Argument","name":{"kind":"Name","value":"to"},"value":{"kind":"Variable","name":{"kind":"Name","value":"to"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleRevisionDiffFields"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleRevisionDiffFields"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RevisionDiff"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"from"}},{"kind":"Field","name":{"kind":"Name","value":"to"}},{"kind":"Field","name":{"kind":"Name","value":"unified"}},{"kind":"Field","name":{"kind":"Name","value":"images"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"image"}},{"kind":"Field","name":{"kind":"Name","value":"change"}},{"kind":"Field","name":{"kind":"Name","value":"fields"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"field"}},{"kind":"Field","name":{"kind":"Name","value":"old"}},{"kind":"Field","name":{"kind":"Name","value":"new"}},{"kind":"Field","name":{"kind":"Name","value":"secret"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleDeploymentRevisionDiffQuery, ConsoleDeploymentRevisionDiffQueryVariables>;
export const ConsoleRollbackAppDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleRollbackApp"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"revision"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rollbackApp"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"revision"},"value":{"kind":"Variable","name":{"kind":"Name","value":"revision"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleRollbackAppMutation, ConsoleRollbackAppMutationVariables>;
export const ConsoleRollbackDeploymentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleRollbackDeployment"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deploymentId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"revision"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rollbackDeployment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"targetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"deploymentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deploymentId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"revision"},"value":{"kind":"Variable","name":{"kind":"Name","value":"revision"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Revision"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"deploymentId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleRollbackDeploymentMutation, ConsoleRollbackDeploymentMutationVariables>;
export const ConsoleRevisionProgressDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ConsoleRevisionProgress"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"appId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"deploymentId"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revisionChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"appId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"appId"}}},{"kind":"Argument","name":{"kind":"Name","value":"targetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}}},{"kind":"Argument","name":{"kind":"Name","value":"deploymentId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"deploymentId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"number"}},{"kind":"Field","name":{"kind":"Name","value":"outcome"}},{"kind":"Field","name":{"kind":"Name","value":"step"}}]}}]}}]} as unknown as DocumentNode<ConsoleRevisionProgressSubscription, ConsoleRevisionProgressSubscriptionVariables>;
export const ConsoleHooksDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleHooks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deployHooks"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleHook"}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleHook"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DeployHook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"appId"}},{"kind":"Field","name":{"kind":"Name","value":"targetId"}},{"kind":"Field","name":{"kind":"Name","value":"deploymentId"}},{"kind":"Field","name":{"kind":"Name","value":"templateRepoId"}},{"kind":"Field","name":{"kind":"Name","value":"allowTag"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"calls"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"deliveryId"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleHooksQuery, ConsoleHooksQueryVariables>;
export const ConsoleCreateHookDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleCreateHook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateDeployHookInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDeployHook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"IssuedDeployHook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"hook"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleHook"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleHook"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DeployHook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"appId"}},{"kind":"Field","name":{"kind":"Name","value":"targetId"}},{"kind":"Field","name":{"kind":"Name","value":"deploymentId"}},{"kind":"Field","name":{"kind":"Name","value":"templateRepoId"}},{"kind":"Field","name":{"kind":"Name","value":"allowTag"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"calls"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"deliveryId"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleCreateHookMutation, ConsoleCreateHookMutationVariables>;
export const ConsoleRotateHookDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleRotateHook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"rotateDeployHookSecret"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"IssuedDeployHook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"secret"}},{"kind":"Field","name":{"kind":"Name","value":"hook"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"FragmentSpread","name":{"kind":"Name","value":"ConsoleHook"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}},{"kind":"FragmentDefinition","name":{"kind":"Name","value":"ConsoleHook"},"typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DeployHook"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"kind"}},{"kind":"Field","name":{"kind":"Name","value":"url"}},{"kind":"Field","name":{"kind":"Name","value":"appId"}},{"kind":"Field","name":{"kind":"Name","value":"targetId"}},{"kind":"Field","name":{"kind":"Name","value":"deploymentId"}},{"kind":"Field","name":{"kind":"Name","value":"templateRepoId"}},{"kind":"Field","name":{"kind":"Name","value":"allowTag"}},{"kind":"Field","name":{"kind":"Name","value":"lastUsedAt"}},{"kind":"Field","name":{"kind":"Name","value":"calls"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"last"},"value":{"kind":"IntValue","value":"5"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"deliveryId"}},{"kind":"Field","name":{"kind":"Name","value":"event"}},{"kind":"Field","name":{"kind":"Name","value":"status"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"receivedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleRotateHookMutation, ConsoleRotateHookMutationVariables>;
export const ConsoleRevokeHookDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleRevokeHook"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeDeployHook"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleRevokeHookMutation, ConsoleRevokeHookMutationVariables>;
export const ConsoleTargetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTarget"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deploymentTarget"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"endpointUrl"}},{"kind":"Field","name":{"kind":"Name","value":"metadataError"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentVersion"}},{"kind":"Field","name":{"kind":"Name","value":"adapterType"}},{"kind":"Field","name":{"kind":"Name","value":"adapterVersion"}}]}},{"kind":"Field","name":{"kind":"Name","value":"deployments"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"template"}},{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"services"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orchestratorId"}},{"kind":"Field","name":{"kind":"Name","value":"actualState"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"templates"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"images"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"environment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"variable"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleTargetQuery, ConsoleTargetQueryVariables>;
export const ConsoleDeploymentStatusDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"subscription","name":{"kind":"Name","value":"ConsoleDeploymentStatus"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deploymentStatusChanged"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"Argument","name":{"kind":"Name","value":"targetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"error"}},{"kind":"Field","name":{"kind":"Name","value":"deployment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"status"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"services"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"orchestratorId"}},{"kind":"Field","name":{"kind":"Name","value":"actualState"}},{"kind":"Field","name":{"kind":"Name","value":"reason"}}]}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleDeploymentStatusSubscription, ConsoleDeploymentStatusSubscriptionVariables>;
export const ConsoleDeployDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleDeploy"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateDeploymentInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDeployment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Deployment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleDeployMutation, ConsoleDeployMutationVariables>;
export const ConsoleUpdateTargetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleUpdateTarget"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"UpdateDeploymentTargetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"updateDeploymentTarget"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DeploymentTarget"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"endpointUrl"}},{"kind":"Field","name":{"kind":"Name","value":"metadataError"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentVersion"}},{"kind":"Field","name":{"kind":"Name","value":"adapterType"}},{"kind":"Field","name":{"kind":"Name","value":"adapterVersion"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleUpdateTargetMutation, ConsoleUpdateTargetMutationVariables>;
export const ConsoleRedeployDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleRedeploy"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"redeployDeployment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"targetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Deployment"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleRedeployMutation, ConsoleRedeployMutationVariables>;
export const ConsoleDeleteDeploymentDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleDeleteDeployment"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deleteDeployment"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"targetId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"targetId"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleDeleteDeploymentMutation, ConsoleDeleteDeploymentMutationVariables>;
export const ConsoleTargetsDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTargets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"deploymentTargets"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"endpointUrl"}},{"kind":"Field","name":{"kind":"Name","value":"metadataError"}},{"kind":"Field","name":{"kind":"Name","value":"metadata"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"agentVersion"}},{"kind":"Field","name":{"kind":"Name","value":"adapterType"}},{"kind":"Field","name":{"kind":"Name","value":"adapterVersion"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleTargetsQuery, ConsoleTargetsQueryVariables>;
export const ConsoleAddTargetDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleAddTarget"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateDeploymentTargetInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createDeploymentTarget"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"DeploymentTarget"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleAddTargetMutation, ConsoleAddTargetMutationVariables>;
export const ConsoleTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"template"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"keywords"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"documentation"}},{"kind":"Field","name":{"kind":"Name","value":"images"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"command"}},{"kind":"Field","name":{"kind":"Name","value":"expose"}},{"kind":"Field","name":{"kind":"Name","value":"ports"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"hostPort"}},{"kind":"Field","name":{"kind":"Name","value":"containerPort"}},{"kind":"Field","name":{"kind":"Name","value":"proto"}}]}},{"kind":"Field","name":{"kind":"Name","value":"links"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"service"}},{"kind":"Field","name":{"kind":"Name","value":"alias"}}]}},{"kind":"Field","name":{"kind":"Name","value":"environment"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"variable"}},{"kind":"Field","name":{"kind":"Name","value":"value"}}]}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleTemplateQuery, ConsoleTemplateQueryVariables>;
export const ConsoleLaunchTemplateDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleLaunchTemplate"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"templateId"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"name"}},"type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}},{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"imageOverrides"}},"type":{"kind":"ListType","type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"OverrideImageInput"}}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApp"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"templateId"},"value":{"kind":"Variable","name":{"kind":"Name","value":"templateId"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"name"},"value":{"kind":"Variable","name":{"kind":"Name","value":"name"}}},{"kind":"ObjectField","name":{"kind":"Name","value":"imageOverrides"},"value":{"kind":"Variable","name":{"kind":"Name","value":"imageOverrides"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"App"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleLaunchTemplateMutation, ConsoleLaunchTemplateMutationVariables>;
export const ConsoleSearchDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleSearch"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"q"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"String"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"search"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"q"},"value":{"kind":"Variable","name":{"kind":"Name","value":"q"}}},{"kind":"Argument","name":{"kind":"Name","value":"limit"},"value":{"kind":"IntValue","value":"30"}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"items"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"description"}},{"kind":"Field","name":{"kind":"Name","value":"source"}},{"kind":"Field","name":{"kind":"Name","value":"imageCount"}},{"kind":"Field","name":{"kind":"Name","value":"images"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"source"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Template"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"keywords"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"RegistryImageTemplate"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"registryId"}},{"kind":"Field","name":{"kind":"Name","value":"registryName"}},{"kind":"Field","name":{"kind":"Name","value":"starCount"}},{"kind":"Field","name":{"kind":"Name","value":"isOfficial"}}]}}]}},{"kind":"Field","name":{"kind":"Name","value":"errors"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleSearchQuery, ConsoleSearchQueryVariables>;
export const ConsoleCreateAppDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleCreateApp"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateAppInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApp"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"App"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"code"}},{"kind":"Field","name":{"kind":"Name","value":"message"}},{"kind":"Field","name":{"kind":"Name","value":"fields"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleCreateAppMutation, ConsoleCreateAppMutationVariables>;
export const ConsoleTokensDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"query","name":{"kind":"Name","value":"ConsoleTokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"apiTokens"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}}]} as unknown as DocumentNode<ConsoleTokensQuery, ConsoleTokensQueryVariables>;
export const ConsoleIssueTokenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleIssueToken"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"input"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"CreateApiTokenInput"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"createApiToken"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"Variable","name":{"kind":"Name","value":"input"}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"IssuedApiToken"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"token"}},{"kind":"Field","name":{"kind":"Name","value":"apiToken"},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"databaseId"}},{"kind":"Field","name":{"kind":"Name","value":"name"}},{"kind":"Field","name":{"kind":"Name","value":"username"}},{"kind":"Field","name":{"kind":"Name","value":"scopes"}},{"kind":"Field","name":{"kind":"Name","value":"createdAt"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleIssueTokenMutation, ConsoleIssueTokenMutationVariables>;
export const ConsoleRevokeTokenDocument = {"kind":"Document","definitions":[{"kind":"OperationDefinition","operation":"mutation","name":{"kind":"Name","value":"ConsoleRevokeToken"},"variableDefinitions":[{"kind":"VariableDefinition","variable":{"kind":"Variable","name":{"kind":"Name","value":"id"}},"type":{"kind":"NonNullType","type":{"kind":"NamedType","name":{"kind":"Name","value":"Int"}}}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"revokeApiToken"},"arguments":[{"kind":"Argument","name":{"kind":"Name","value":"input"},"value":{"kind":"ObjectValue","fields":[{"kind":"ObjectField","name":{"kind":"Name","value":"id"},"value":{"kind":"Variable","name":{"kind":"Name","value":"id"}}}]}}],"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"__typename"}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"ApiToken"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"id"}},{"kind":"Field","name":{"kind":"Name","value":"revokedAt"}}]}},{"kind":"InlineFragment","typeCondition":{"kind":"NamedType","name":{"kind":"Name","value":"Error"}},"selectionSet":{"kind":"SelectionSet","selections":[{"kind":"Field","name":{"kind":"Name","value":"message"}}]}}]}}]}}]} as unknown as DocumentNode<ConsoleRevokeTokenMutation, ConsoleRevokeTokenMutationVariables>;