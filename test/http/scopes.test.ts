import { expect } from '@jest/globals';
import {
  getNamedType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  isCompositeType,
  type GraphQLField,
  type GraphQLInputType,
  type GraphQLObjectType,
} from 'graphql';
import { request } from 'undici';
import { extraRoutes, routes } from '../../rest/routes';
import { legacyUiRoutes } from '../../rest/legacy-ui-routes';
import { getSchema } from '../../schema';
import { EVENT_TYPE_NAMES } from '../../src/outbound/event-types';
import { startAgent, startFakeAdapter, type RunningAgent } from '../agent/agent-harness';
import { TestReceiver } from '../automation/receiver';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';
import { TEST_IMAGE } from '../helpers/docker';
import { git, makeGitRepo, pmx } from '../helpers/git';

/**
 * README "Authentication": read < write < deploy < admin, each including the ones before. These
 * tables are the expectation, written out: a changed authScopes in the schema, or a route, query,
 * mutation or subscription missing here, fails the test.
 */
const SCOPES = ['read', 'write', 'deploy', 'admin'] as const;
type Scope = (typeof SCOPES)[number];

/** How a scope below a row's is answered where it is not the field's own 403 (a domain service's check). */
interface Refusal {
  status: number;
  body: (f: Fixtures) => unknown;
}

/** The scope a call needs, the field that refuses a scope below it, and other answers to a scope below it. */
type Row = [Scope, string] | [Scope, string, Partial<Record<Scope, Refusal>>];

/** Interface A on the main listener (rest/routes.ts `routes` and `extraRoutes`): the scope and the field that refuses. */
const REST: Record<string, Row> = {
  'GET /search': ['read', 'Query.search'],
  'GET /platform': ['read', 'Query.platform'],
  'GET /user': ['read', 'Query.me'],
  'GET /keywords': ['read', 'Query.keywords'],
  'GET /types': ['read', 'Query.templateTypes'],
  'GET /templates': ['read', 'Query.templates'],
  'GET /templates/:id': ['read', 'Query.template'],
  'DELETE /templates/:id': ['write', 'Mutation.deleteTemplate'],
  'GET /template_repos': ['read', 'Query.templateRepos'],
  'POST /template_repos': ['write', 'Mutation.createTemplateRepo'],
  'POST /template_repos/:id': ['write', 'Mutation.reloadTemplateRepo'],
  'DELETE /template_repos/:id': ['write', 'Mutation.deleteTemplateRepo'],
  'GET /registries': ['read', 'Query.registries'],
  'POST /registries': ['write', 'Mutation.createRegistry'],
  'GET /registries/:id': ['read', 'Query.registry'],
  'PATCH /registries/:id': ['write', 'Mutation.updateRegistry'],
  'DELETE /registries/:id': ['write', 'Mutation.deleteRegistry'],
  'GET /apps': ['read', 'Query.apps'],
  'POST /apps': ['write', 'Mutation.createApp'],
  'GET /apps/:id': ['read', 'Query.app'],
  'PUT /apps/:id': ['write', 'Mutation.rebuildApp'],
  'DELETE /apps/:id': ['write', 'Mutation.deleteApp'],
  'GET /apps/:id/journal': ['read', 'Query.appJournal'],
  'GET /apps/:app_id/services': ['read', 'Query.services'],
  'POST /apps/:app_id/services': ['write', 'Mutation.createService'],
  'POST /apps/:app_id/template': ['read', 'Mutation.previewAppTemplate'],
  'GET /apps/:app_id/services/:id': ['read', 'Query.service'],
  'PUT /apps/:app_id/services/:id': ['write', 'Mutation.updateService'],
  'GET /apps/:app_id/services/:id/journal': ['read', 'Query.serviceJournal'],
  'POST /templates': ['write', 'Mutation.createTemplate'],
  'POST /templates/:id/save': ['write', 'Mutation.saveTemplate'],
  'GET /deployment_targets': ['read', 'Query.deploymentTargets'],
  'POST /deployment_targets': ['deploy', 'Mutation.createDeploymentTarget'],
  'GET /deployment_targets/:id': ['read', 'Query.deploymentTarget'],
  'DELETE /deployment_targets/:id': ['deploy', 'Mutation.deleteDeploymentTarget'],
  'GET /deployment_targets/:targetId/deployments': ['read', 'Query.deploymentTarget'],
  'POST /deployment_targets/:targetId/deployments': ['deploy', 'Mutation.createDeployment'],
  'GET /deployment_targets/:targetId/deployments/:id': ['read', 'Query.deployment'],
  'DELETE /deployment_targets/:targetId/deployments/:id': ['deploy', 'Mutation.deleteDeployment'],
  'POST /deployment_targets/:targetId/deployments/:id/redeploy': ['deploy', 'Mutation.redeployDeployment'],
  'GET /template_repos/:id': ['read', 'Query.templateRepo'],
  'DELETE /apps/:app_id/services/:id': ['write', 'Mutation.deleteService'],
  'GET /apps/:id/compose_yml': ['read', 'Query.app'],
  'GET /apps/:app_id/categories': ['read', 'Query.categories'],
  'POST /apps/:app_id/categories': ['write', 'Mutation.createCategory'],
  'GET /apps/:app_id/categories/:id': ['read', 'Query.category'],
  'PUT /apps/:app_id/categories/:id': ['write', 'Mutation.updateCategory'],
  'DELETE /apps/:app_id/categories/:id': ['write', 'Mutation.deleteCategory'],
  'POST /deployment_targets/:id/metadata/refresh': ['deploy', 'Mutation.refreshDeploymentTargetMetadata'],
  'GET /repositories/*': ['read', 'Query.repository'],
  'PUT /user': ['read', 'Mutation.updateUser'],
  'PUT /deployment_targets/:id': ['deploy', 'Mutation.updateDeploymentTarget'],
  // docs/interface.md and README "Deploy hooks": an app's and a template repo's hooks with the
  // write scope, a deployment's with the deploy scope; event subscriptions and the audit log admin only.
  'GET /apps/:app_id/hooks': ['write', 'Query.deployHooks'],
  'POST /apps/:app_id/hooks': ['write', 'Mutation.createDeployHook'],
  'PUT /apps/:app_id/automation': ['write', 'Mutation.setAppAutomation'],
  // The field takes write (a token lists the hooks it may manage); the hook service leaves out a
  // deployment's for a token without deploy, so write gets an empty list rather than the 403
  // docs/interface.md promises for this path.
  'GET /deployment_targets/:target_id/deployments/:deployment_id/hooks': [
    'deploy',
    'Query.deployHooks',
    { write: { status: 200, body: () => [] } },
  ],
  // The field takes write; the hook service refuses a deployment owner without deploy.
  'POST /deployment_targets/:target_id/deployments/:deployment_id/hooks': [
    'deploy',
    'Mutation.createDeployHook',
    { write: { status: 403, body: () => ({ code: 403, message: 'a deployment hook needs the deploy scope', fields: '' }) } },
  ],
  'GET /template_repos/:template_repo_id/hooks': ['write', 'Query.deployHooks'],
  'POST /template_repos/:template_repo_id/hooks': ['write', 'Mutation.createDeployHook'],
  'GET /deploy_hooks/:id': ['write', 'Query.deployHook'],
  'DELETE /deploy_hooks/:id': ['write', 'Mutation.revokeDeployHook'],
  'POST /deploy_hooks/:id/secret': ['write', 'Mutation.rotateDeployHookSecret'],
  'GET /event_subscriptions': ['admin', 'Query.eventSubscriptions'],
  'POST /event_subscriptions': ['admin', 'Mutation.createEventSubscription'],
  'GET /event_subscriptions/:id': ['admin', 'Query.eventSubscription'],
  'PATCH /event_subscriptions/:id': ['admin', 'Mutation.updateEventSubscription'],
  'DELETE /event_subscriptions/:id': ['admin', 'Mutation.deleteEventSubscription'],
  'POST /event_subscriptions/:id/secret': ['admin', 'Mutation.rotateEventSubscriptionSecret'],
  'GET /event_subscriptions/:id/deliveries': ['admin', 'Query.eventSubscription'],
  'POST /event_deliveries/:id/resend': ['admin', 'Mutation.resendEventDelivery'],
  'GET /audit_events': ['admin', 'Query.auditEvents'],
  'GET /audit_events/export': ['admin', 'Query.auditExport'],
  // README "History and rollback": an app's revisions with read, its rollback with write.
  'GET /apps/:app_id/revisions': ['read', 'Query.app'],
  'POST /apps/:app_id/rollback': ['write', 'Mutation.rollbackApp'],
  'GET /deployment_targets/:target_id/deployments/:deployment_id/revisions': ['read', 'Query.deployment'],
  'POST /deployment_targets/:target_id/deployments/:deployment_id/rollback': ['deploy', 'Mutation.rollbackDeployment'],
};

/**
 * The paths of one hook, with a deployment's hook (README "Deploy hooks": listed, rotated and
 * revoked with the scope it was made with): the fields take write, but to a token without deploy
 * the hook is as unknown as one that does not exist (docs/interface.md: 404).
 */
const DEPLOYMENT_HOOK: Record<string, Row> = Object.fromEntries(
  (['GET /deploy_hooks/:id', 'DELETE /deploy_hooks/:id', 'POST /deploy_hooks/:id/secret'] as const).map((key) => [
    key,
    [
      'deploy',
      REST[key][1],
      {
        write: { status: 404, body: (f: Fixtures) => ({ code: 404, message: `deploy hook ${f.deploymentHook} not found`, fields: 'id' }) },
      },
    ],
  ]),
);

/** The original UI's calls on the legacy listener (rest/legacy-ui-routes.ts), but those answered 501. */
const LEGACY: Record<string, [Scope, string]> = {
  'GET /apps': ['read', 'Query.apps'],
  'POST /apps': ['write', 'Mutation.createApp'],
  'GET /apps/:id': ['read', 'Query.app'],
  'PUT /apps/:id': ['write', 'Mutation.updateApp'],
  'DELETE /apps/:id': ['write', 'Mutation.deleteApp'],
  'PUT /apps/:id/rebuild': ['write', 'Mutation.rebuildApp'],
  'POST /apps/:app_id/template': ['read', 'Mutation.previewAppTemplate'],
  'GET /apps/:id/journal': ['read', 'Query.appJournal'],
  'GET /apps/:id/compose_yml': ['read', 'Query.app'],
  'GET /apps/:id/compose_yml.yaml': ['read', 'Query.app'],
  'GET /apps/:app_id/services': ['read', 'Query.services'],
  'POST /apps/:app_id/services': ['write', 'Mutation.createService'],
  'GET /apps/:app_id/services/:id': ['read', 'Query.service'],
  'PUT /apps/:app_id/services/:id': ['write', 'Mutation.updateService'],
  'DELETE /apps/:app_id/services/:id': ['write', 'Mutation.deleteService'],
  'GET /apps/:app_id/services/:id/journal': ['read', 'Query.serviceJournal'],
  'GET /apps/:app_id/categories': ['read', 'Query.categories'],
  'POST /apps/:app_id/categories': ['write', 'Mutation.createCategory'],
  'GET /apps/:app_id/categories/:id': ['read', 'Query.category'],
  'PUT /apps/:app_id/categories/:id': ['write', 'Mutation.updateCategory'],
  'DELETE /apps/:app_id/categories/:id': ['write', 'Mutation.deleteCategory'],
  'GET /templates/:id': ['read', 'Query.template'],
  'POST /templates': ['write', 'Mutation.createTemplate'],
  'POST /templates/:id/save': ['write', 'Mutation.saveTemplate'],
  'GET /template_repos': ['read', 'Query.templateRepos'],
  'POST /template_repos': ['write', 'Mutation.createTemplateRepo'],
  'DELETE /template_repos/:id': ['write', 'Mutation.deleteTemplateRepo'],
  'POST /template_repos/:id/reload': ['write', 'Mutation.reloadTemplateRepo'],
  'GET /registries': ['read', 'Query.registries'],
  'POST /registries': ['write', 'Mutation.createRegistry'],
  'GET /registries/:id': ['read', 'Query.registry'],
  'PUT /registries/:id': ['write', 'Mutation.updateRegistry'],
  'DELETE /registries/:id': ['write', 'Mutation.deleteRegistry'],
  'GET /search': ['read', 'Query.search'],
  'GET /keywords': ['read', 'Query.keywords'],
  'GET /types': ['read', 'Query.templateTypes'],
  'GET /repositories/*': ['read', 'Query.repository'],
  'GET /user': ['read', 'Query.me'],
  'PUT /user': ['read', 'Mutation.updateUser'],
  'GET /local_images': ['read', 'Query.localImages'],
  'GET /local_images/:id': ['read', 'Query.localImage'],
  'DELETE /local_images/:id': ['write', 'Mutation.deleteLocalImage'],
  'GET /deployment_targets': ['read', 'Query.deploymentTargets'],
  'POST /deployment_targets': ['deploy', 'Mutation.createDeploymentTarget'],
  'GET /deployment_targets/:id': ['read', 'Query.deploymentTarget'],
  'DELETE /deployment_targets/:id': ['deploy', 'Mutation.deleteDeploymentTarget'],
  'POST /deployment_targets/:id/metadata/refresh': ['deploy', 'Mutation.refreshDeploymentTargetMetadata'],
  'GET /deployment_targets/:targetId/deployments': ['read', 'Query.deploymentTarget'],
  'POST /deployment_targets/:targetId/deployments': ['deploy', 'Mutation.createDeployment'],
  'GET /deployment_targets/:targetId/deployments/:id': ['read', 'Query.deployment'],
  'DELETE /deployment_targets/:targetId/deployments/:id': ['deploy', 'Mutation.deleteDeployment'],
  'POST /deployment_targets/:targetId/deployments/:id/redeploy': ['deploy', 'Mutation.redeployDeployment'],
};

/** Every root field of the schema. */
const QUERIES: Record<string, Scope> = {
  apiTokens: 'admin',
  apiTokensConnection: 'admin',
  app: 'read',
  appJournal: 'read',
  apps: 'read',
  appsConnection: 'read',
  auditEvents: 'admin',
  auditEventsConnection: 'admin',
  auditExport: 'admin',
  categories: 'read',
  category: 'read',
  deployHook: 'write',
  deployHooks: 'write',
  deployment: 'read',
  deploymentTarget: 'read',
  deploymentTargets: 'read',
  deploymentTargetsConnection: 'read',
  eventSubscription: 'admin',
  eventSubscriptions: 'admin',
  eventTypes: 'admin',
  keywords: 'read',
  localImage: 'read',
  localImages: 'read',
  me: 'read',
  node: 'read',
  nodes: 'read',
  platform: 'read',
  registries: 'read',
  registriesConnection: 'read',
  registry: 'read',
  repository: 'read',
  search: 'read',
  service: 'read',
  serviceJournal: 'read',
  services: 'read',
  template: 'read',
  templateRepo: 'read',
  templateRepos: 'read',
  templateReposConnection: 'read',
  templateTypes: 'read',
  templates: 'read',
  templatesConnection: 'read',
};

const MUTATIONS: Record<string, Scope> = {
  createApiToken: 'admin',
  revokeApiToken: 'admin',
  createApp: 'write',
  createCategory: 'write',
  createDeployHook: 'write',
  createDeployment: 'deploy',
  createDeploymentTarget: 'deploy',
  createEventSubscription: 'admin',
  createRegistry: 'write',
  createService: 'write',
  createSubscriptionTicket: 'read',
  createTemplate: 'write',
  createTemplateRepo: 'write',
  deleteApp: 'write',
  deleteCategory: 'write',
  deleteDeployment: 'deploy',
  deleteDeploymentTarget: 'deploy',
  deleteEventSubscription: 'admin',
  deleteLocalImage: 'write',
  deleteRegistry: 'write',
  deleteService: 'write',
  deleteTemplate: 'write',
  deleteTemplateRepo: 'write',
  previewAppTemplate: 'read',
  rebuildApp: 'write',
  rollbackApp: 'write',
  rollbackDeployment: 'deploy',
  redeployDeployment: 'deploy',
  refreshDeploymentTargetMetadata: 'deploy',
  reloadTemplateRepo: 'write',
  resendEventDelivery: 'admin',
  revokeDeployHook: 'write',
  rotateDeployHookSecret: 'write',
  rotateEventSubscriptionSecret: 'admin',
  saveTemplate: 'write',
  setAppAutomation: 'write',
  updateApp: 'write',
  updateCategory: 'write',
  updateDeploymentTarget: 'deploy',
  updateEventSubscription: 'admin',
  updateRegistry: 'write',
  updateService: 'write',
  updateUser: 'read',
};

const SUBSCRIPTIONS: Record<string, Scope> = {
  deploymentStatusChanged: 'read',
  revisionChanged: 'read',
  serviceStateChanged: 'read',
};

const allows = (token: Scope, needed: Scope) => SCOPES.indexOf(token) >= SCOPES.indexOf(needed);

/** An allowed call need not succeed (the ids are of nothing), but it is never refused. */
function notRefused(call: string, status: number): void {
  expect({ call, status, refused: status === 401 || status === 403 }).toEqual({ call, status, refused: false });
}

const forbidden = (coordinate: string) => ({ code: 403, message: `this token may not use ${coordinate}`, fields: '' });

/** The fixtures a refused call names, so that one that got through would change something. */
interface Fixtures {
  template: number;
  repo: number;
  repoPath: string;
  otherRepoPath: string;
  registry: number;
  app: number;
  service: number;
  category: number;
  target: number;
  deployment: number;
  spareToken: number;
  agentToken: string;
  /** The app's hook and the deployment's. */
  hook: number;
  deploymentHook: number;
  subscription: number;
  /** The logged delivery of the deployment's deployment.created to the subscription. */
  delivery: number;
}

/** Ids nothing has: allowed calls use these, so that they leave the fixtures alone. */
const NONE = 987654;

type Ids = Record<
  | 'template'
  | 'repo'
  | 'registry'
  | 'app'
  | 'service'
  | 'category'
  | 'target'
  | 'deployment'
  | 'spareToken'
  | 'hook'
  | 'deploymentHook'
  | 'subscription'
  | 'delivery',
  number
>;

function idsOf(f: Fixtures | undefined): Ids {
  return {
    template: f?.template ?? NONE,
    repo: f?.repo ?? NONE,
    registry: f?.registry ?? NONE,
    app: f?.app ?? NONE,
    service: f?.service ?? NONE,
    category: f?.category ?? NONE,
    target: f?.target ?? NONE,
    deployment: f?.deployment ?? NONE,
    spareToken: f?.spareToken ?? NONE,
    hook: f?.hook ?? NONE,
    deploymentHook: f?.deploymentHook ?? NONE,
    subscription: f?.subscription ?? NONE,
    delivery: f?.delivery ?? NONE,
  };
}

const BY_COLLECTION: Record<string, keyof Ids> = {
  templates: 'template',
  template_repos: 'repo',
  registries: 'registry',
  apps: 'app',
  services: 'service',
  categories: 'category',
  deployment_targets: 'target',
  deployments: 'deployment',
  deploy_hooks: 'hook',
  event_subscriptions: 'subscription',
  event_deliveries: 'delivery',
};

/** A route's path with ids put in: `:id` by the collection before it, the others by name. */
function fillPath(path: string, ids: Ids): string {
  const parts = path.split('/');
  return parts
    .map((part, i) => {
      if (part === '*') return encodeURI(TEST_IMAGE.split(':')[0]);
      if (part === ':app_id') return String(ids.app);
      if (part === ':targetId' || part === ':target_id') return String(ids.target);
      if (part === ':deployment_id') return String(ids.deployment);
      if (part === ':template_repo_id') return String(ids.repo);
      if (part === ':id') return parts[i - 1] === 'local_images' ? '0'.repeat(64) : String(ids[BY_COLLECTION[parts[i - 1]]]);
      return part;
    })
    .join('/');
}

/** Bodies that would change something if the call went through (main listener, JSON as the spec has it). */
function restBody(key: string, f: Fixtures, ids: Ids): unknown {
  const bodies: Record<string, unknown> = {
    'POST /template_repos': { name: f.otherRepoPath },
    'POST /registries': { name: 'refused', endpoint_url: 'https://127.0.0.1:9' },
    'PATCH /registries/:id': { name: 'renamed' },
    'POST /apps': { template_id: f.template },
    'POST /apps/:app_id/services': { name: 'refused', from: TEST_IMAGE },
    'POST /apps/:app_id/template': { name: 'Preview' },
    'PUT /apps/:app_id/services/:id': { description: 'changed' },
    'POST /templates': { app_id: ids.app, name: 'Refused' },
    'POST /templates/:id/save': { repo: f.repoPath, file_name: 'refused' },
    'POST /deployment_targets': { name: 'refused', auth_blob: f.agentToken },
    'PUT /deployment_targets/:id': { name: 'renamed' },
    'POST /deployment_targets/:targetId/deployments': { template_id: f.template },
    'POST /apps/:app_id/categories': { name: 'Refused' },
    'PUT /apps/:app_id/categories/:id': { name: 'Renamed' },
    'PUT /user': { email: 'changed@example.com' },
    'POST /apps/:app_id/hooks': { kind: 'generic', name: 'refused', allow_tag: true },
    'PUT /apps/:app_id/automation': { redeploy_on_template_change: true },
    'POST /deployment_targets/:target_id/deployments/:deployment_id/hooks': { name: 'refused' },
    'POST /template_repos/:template_repo_id/hooks': { kind: 'github', name: 'refused' },
    'POST /event_subscriptions': { url: 'https://127.0.0.1:9/refused', event_types: ['deployment.failed'] },
    'PATCH /event_subscriptions/:id': { enabled: false },
    'POST /apps/:app_id/rollback': { revision: 1 },
    'POST /deployment_targets/:target_id/deployments/:deployment_id/rollback': { revision: 1 },
  };
  return bodies[key];
}

/** The same for the original UI's dialect: its bodies and its query-string fields. */
function legacyCall(key: string, f: Fixtures, ids: Ids): { body?: unknown; query?: string } {
  const calls: Record<string, { body?: unknown; query?: string }> = {
    'POST /apps': { body: { template_id: String(f.template) } },
    'PUT /apps/:id': { body: { name: 'Renamed' } },
    'POST /apps/:app_id/template': { query: 'name=Preview' },
    'POST /apps/:app_id/services': { body: { name: 'refused', from: TEST_IMAGE } },
    'PUT /apps/:app_id/services/:id': { body: { description: 'changed' } },
    'POST /apps/:app_id/categories': { body: { name: 'Refused' } },
    'PUT /apps/:app_id/categories/:id': { body: { name: 'Renamed' } },
    'POST /templates': { body: { app_id: String(ids.app), name: 'Refused' } },
    'POST /templates/:id/save': { query: `repo=${encodeURIComponent(f.repoPath)}&file_name=refused` },
    'POST /template_repos': { body: { name: f.otherRepoPath } },
    'POST /registries': { body: { name: 'refused', endpoint_url: 'https://127.0.0.1:9' } },
    'PUT /registries/:id': { body: { name: 'renamed' } },
    'PUT /user': { body: { email: 'changed@example.com' } },
    'POST /deployment_targets': { body: { name: 'refused', auth_blob: f.agentToken } },
    'POST /deployment_targets/:targetId/deployments': { body: { resource_type: 'Template', resource_id: String(f.template) } },
  };
  return calls[key] ?? {};
}

/** A value for an argument or input field, from its type: ids of the fixtures (or none), texts that would be accepted. */
function valueFor(name: string, type: GraphQLInputType, owner: string, f: Fixtures, ids: Ids): unknown {
  if (isNonNullType(type)) return valueFor(name, type.ofType, owner, f, ids);
  if (isListType(type)) return [valueFor(name, type.ofType, owner, f, ids)];
  if (isInputObjectType(type)) {
    const out: Record<string, unknown> = {};
    for (const field of Object.values(type.getFields())) {
      if (isNonNullType(field.type)) out[field.name] = valueFor(field.name, field.type, type.name, f, ids);
    }
    return out;
  }
  if (isEnumType(type)) return type.getValues()[0].value;
  if (isScalarType(type)) {
    switch (type.name) {
      case 'Int':
        return intFor(name, owner, ids);
      case 'ID':
        return Buffer.from(`App:${ids.app}`).toString('base64');
      case 'Boolean':
        return false;
      case 'String':
        return (
          {
            endpointUrl: 'https://127.0.0.1:9',
            authBlob: f.agentToken,
            repo: f.repoPath,
            from: TEST_IMAGE,
            q: 'scoped',
          }[name] ?? (owner === 'LocalImageIdInput' || owner === 'localImage' ? '0'.repeat(64) : 'Refused')
        );
      default:
        return {};
    }
  }
  throw new Error(`no value for ${owner}.${name}`);
}

/** `id` means the object the input or field is about; other ids say what they are. */
function intFor(name: string, owner: string, ids: Ids): number {
  const named: Record<string, keyof Ids> = { appId: 'app', templateId: 'template', targetId: 'target' };
  if (named[name]) return ids[named[name]];
  if (name !== 'id') return 1;
  const byOwner: [RegExp, keyof Ids][] = [
    [/DeployHook/i, 'hook'],
    [/EventSubscription/i, 'subscription'],
    [/EventDelivery/i, 'delivery'],
    [/^(Update|Delete)?Registry|^registry$/i, 'registry'],
    [/TemplateRepo/i, 'repo'],
    [/^(SaveTemplate|DeleteTemplate)|^template$/i, 'template'],
    [/Category|^category$/i, 'category'],
    [/DeploymentTarget|^deploymentTarget$/i, 'target'],
    [/Deployment|^deployment$/i, 'deployment'],
    [/Service|^service/i, 'service'],
    [/ApiToken/i, 'spareToken'],
    [/App|^app$/i, 'app'],
  ];
  const hit = byOwner.find(([re]) => re.test(owner));
  return hit ? ids[hit[1]] : NONE;
}

/** One operation calling `field` with every argument given as a variable; `{ __typename }` on composite results. */
function operationFor(kind: 'query' | 'mutation' | 'subscription', field: GraphQLField<unknown, unknown>, f: Fixtures, ids: Ids) {
  const variables: Record<string, unknown> = {};
  const declared: string[] = [];
  const passed: string[] = [];
  for (const arg of field.args) {
    // Optional arguments are left out, but the app of an optional appId (it narrows what is read).
    if (!isNonNullType(arg.type)) continue;
    variables[arg.name] = valueFor(arg.name, arg.type, field.name, f, ids);
    declared.push(`$${arg.name}: ${String(arg.type)}`);
    passed.push(`${arg.name}: $${arg.name}`);
  }
  const selection = isCompositeType(getNamedType(field.type)) ? ' { __typename }' : '';
  const head = `${kind}${declared.length ? `(${declared.join(', ')})` : ''} { `;
  const query = `${head}${field.name}${passed.length ? `(${passed.join(', ')})` : ''}${selection} }`;
  return { query, variables, column: head.length + 1 };
}

const digestTables = async (t: TestApp): Promise<string> => {
  const connection = t.app.orm.em.getConnection();
  const tables: { tablename: string }[] = await connection.execute(
    // The audit log records every attempt, a refused one too (and a token's first use): that is its purpose.
    "select tablename from pg_tables where schemaname = current_schema() and tablename not like 'mikro_orm%' and tablename not in ('audit_events', 'api_token_uses') order by tablename",
  );
  const parts = (await Promise.all(
    tables.map(({ tablename }) =>
      connection.execute(
        `select '${tablename}:' || md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as d from "${tablename}" t`,
      ),
    ),
  )) as { d: string }[][];
  return parts.map((rows) => rows[0].d).join('\n');
};

describe('scopes: every route, query, mutation and subscription, with every scope', () => {
  let t: TestApp;
  let agent: RunningAgent;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let receiver: TestReceiver;
  let f: Fixtures;
  const tokens = {} as Record<Scope, string>;

  beforeAll(async () => {
    // No engine (apps are stored, their containers fail to start: nothing on the shared engine is
    // touched, not even by a local image delete), a legacy listener in its default read scope,
    // events delivered to a receiver on loopback.
    t = await startTestApp({
      DOCKER_HOST: 'unix:///nonexistent/docker.sock',
      LEGACY_UI_PORT: '1',
      REGISTRY_TIMEOUT_MS: '1000',
      WEBHOOK_ALLOW_PRIVATE: 'true',
    });
    receiver = await TestReceiver.start();
    adapter = await startFakeAdapter();
    agent = await startAgent({ env: { ADAPTER_URL: adapter.url } });
    for (const scope of SCOPES) {
      const issued = await t.graphql<{ createApiToken: { token: string } }>(
        'mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { ... on IssuedApiToken { token } } }',
        { input: { name: `${scope} token`, scopes: [scope] } },
      );
      tokens[scope] = issued.body.data.createApiToken.token;
    }
    const spare = await t.graphql<{ createApiToken: { databaseId: number } }>(
      'mutation { createApiToken(input: {name: "spare", scopes: [read]}) { ... on IssuedApiToken { databaseId } } }',
    );
    const images = ['  - name: web', `    source: ${TEST_IMAGE}`, '    category: Web'].join('\n');
    const repoPath = makeGitRepo({ 'scoped.pmx': pmx('Scoped', { images }) });
    const otherRepoPath = makeGitRepo({ 'other.pmx': pmx('Other', { images }) });
    const ok = <T>(res: { status: number; body: T }): T => {
      expect(res.status).toBeLessThan(300);
      return res.body;
    };
    const repo = ok(await t.request<Identified>('POST', '/template_repos', { body: { name: repoPath } })).id;
    const template = ok(await t.request<Identified[]>('GET', '/templates'))[0].id;
    const registry = ok(
      await t.request<Identified>('POST', '/registries', { body: { name: 'scoped', endpoint_url: 'https://127.0.0.1:9' } }),
    ).id;
    const app = ok(await t.request<Identified>('POST', '/apps', { body: { template_id: template } })).id;
    const service = ok(await t.request<Identified[]>('GET', `/apps/${app}/services`))[0].id;
    const category = ok(await t.request<Identified>('POST', `/apps/${app}/categories`, { body: { name: 'Tier' } })).id;
    const target = ok(await t.request<Identified>('POST', '/deployment_targets', { body: { name: 'scoped', auth_blob: agent.token } })).id;
    // Subscribed to every type before the deployment is made: its deployment.created is a logged delivery.
    const subscription = ok(
      await t.request<{ secret: string; subscription: Identified }>('POST', '/event_subscriptions', {
        body: { url: receiver.url, event_types: EVENT_TYPE_NAMES },
      }),
    ).subscription.id;
    const deployment = ok(
      await t.request<Identified>('POST', `/deployment_targets/${target}/deployments`, { body: { template_id: template } }),
    ).id;
    const hookOf = async (path: string, body: unknown) => ok(await t.request<{ hook: Identified }>('POST', path, { body })).hook.id;
    const hook = await hookOf(`/apps/${app}/hooks`, { name: 'ci' });
    const deploymentHook = await hookOf(`/deployment_targets/${target}/deployments/${deployment}/hooks`, { name: 'ci' });
    // Deliveries are asynchronous: the receiver has it, then the attempt is logged (the deadline is only a safety net).
    await receiver.until((got) => got.some((r) => r.json.type === 'deployment.created'), 'the deployment.created delivery');
    const deadline = Date.now() + 60_000;
    let delivery: number | undefined;
    for (;;) {
      const log = ok(await t.request<{ id: number; status: string }[]>('GET', `/event_subscriptions/${subscription}/deliveries`));
      delivery = log.find((d) => d.status === 'delivered')?.id;
      if (delivery !== undefined) break;
      if (Date.now() > deadline) throw new Error(`no delivery logged: ${JSON.stringify(log)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    f = {
      template,
      repo,
      repoPath,
      otherRepoPath,
      registry,
      app,
      service,
      category,
      target,
      deployment,
      spareToken: spare.body.data.createApiToken.databaseId,
      agentToken: agent.token,
      hook,
      deploymentHook,
      subscription,
      delivery,
    };
  }, 120_000);

  afterAll(async () => {
    await t?.close();
    await agent?.close();
    await adapter?.close();
    await receiver?.close();
  });

  test('the tables name every route, root field and subscription there is', () => {
    const schema = getSchema();
    const names = (type: GraphQLObjectType | null | undefined) => Object.keys(type?.getFields() ?? {}).sort();
    expect(Object.keys(REST).sort()).toEqual([...routes, ...extraRoutes].map((r) => `${r.method} ${r.path}`).sort());
    expect(Object.keys(LEGACY).sort()).toEqual(
      legacyUiRoutes
        .filter((r) => 'operation' in r)
        .map((r) => `${r.method} ${r.path}`)
        .sort(),
    );
    expect(Object.keys(QUERIES).sort()).toEqual(names(schema.getQueryType()));
    expect(Object.keys(MUTATIONS).sort()).toEqual(names(schema.getMutationType()));
    expect(Object.keys(SUBSCRIPTIONS).sort()).toEqual(names(schema.getSubscriptionType()));
  });

  /** Every call: what it needs, who makes it (a token of a scope, or the legacy listener), and how to check it either way. */
  type Call = { label: string; needed: Scope; token: Scope | 'legacy'; refused: () => Promise<void>; allowed: () => Promise<void> };

  function calls(): Call[] {
    const out: Call[] = [];
    const schema = getSchema();
    /** `hook`: which of the fixtures' hooks `/deploy_hooks/:id` names (the app's, or the deployment's). */
    const main = (token: Scope, key: string, [needed, coordinate, others]: Row, hook: 'hook' | 'deploymentHook' = 'hook') => {
      const [method, path] = key.split(' ');
      const label = `${token} ${key}${hook === 'deploymentHook' ? " (the deployment's hook)" : ''}`;
      const run = async (ids: Ids) => {
        const res = await t.request(method, fillPath(path, { ...ids, hook: ids[hook] }), {
          token: tokens[token],
          body: restBody(key, f, ids),
        });
        return { status: res.status, body: res.body };
      };
      const other = others?.[token];
      out.push({
        label,
        needed,
        token,
        refused: async () =>
          expect({ call: label, ...(await run(idsOf(f))) }).toEqual({
            call: label,
            status: other?.status ?? 403,
            body: other ? other.body(f) : forbidden(coordinate),
          }),
        allowed: async () => notRefused(label, (await run(idsOf(undefined))).status),
      });
    };
    const legacy = (key: string, [needed, coordinate]: [Scope, string]) => {
      const [method, path] = key.split(' ');
      const run = async (ids: Ids) => {
        const { body, query } = legacyCall(key, f, ids);
        const res = await request(`${t.legacyUrl}${fillPath(path, ids)}${query ? `?${query}` : ''}`, {
          method,
          headers: { 'content-type': 'application/json', accept: 'application/json' },
          body: method === 'POST' || method === 'PUT' ? JSON.stringify(body ?? {}) : undefined,
        });
        const text = await res.body.text();
        return { status: res.statusCode, body: text ? (JSON.parse(text) as unknown) : text };
      };
      const label = `legacy (read) ${key}`;
      out.push({
        label,
        needed,
        token: 'legacy',
        refused: async () =>
          expect({ call: label, ...(await run(idsOf(f))) }).toEqual({ call: label, status: 403, body: forbidden(coordinate) }),
        allowed: async () => notRefused(label, (await run(idsOf(undefined))).status),
      });
    };
    const graphql = (token: Scope, kind: 'query' | 'mutation', type: 'Query' | 'Mutation', name: string, needed: Scope) => {
      const field = (kind === 'query' ? schema.getQueryType() : schema.getMutationType())!.getFields()[name];
      const label = `${token} ${type}.${name}`;
      const run = async (ids: Ids) => {
        const { query, variables, column } = operationFor(kind, field, f, ids);
        const res = await t.request('POST', '/graphql', { token: tokens[token], body: { query, variables } });
        return { status: res.status, body: res.body, column };
      };
      out.push({
        label,
        needed,
        token,
        refused: async () => {
          const { status, body, column } = await run(idsOf(f));
          // A nullable root field refused is null beside its error: a partial answer, so a 200 (README "Errors").
          const nullable = !isNonNullType(field.type);
          expect({ call: label, status, body }).toEqual({
            call: label,
            status: nullable ? 200 : 403,
            body: {
              data: nullable ? { [name]: null } : null,
              errors: [
                {
                  message: `this token may not use ${type}.${name}`,
                  locations: [{ line: 1, column }],
                  path: [name],
                  extensions: { code: 'FORBIDDEN', status: 403, fields: [] },
                },
              ],
            },
          });
        },
        allowed: async () => {
          const { status, body } = await run(idsOf(undefined));
          const codes = ((body as { errors?: { extensions?: { code?: string } }[] }).errors ?? []).map((e) => e.extensions?.code);
          notRefused(label, status);
          expect({ call: label, codes: codes.filter((c) => c === 'FORBIDDEN' || c === 'UNAUTHENTICATED') }).toEqual({
            call: label,
            codes: [],
          });
        },
      });
    };
    const subscription = (token: Scope, name: string, needed: Scope) => {
      const field = schema.getSubscriptionType()!.getFields()[name];
      const label = `${token} Subscription.${name}`;
      // Server-sent events, as the README's curl: the status is decided when the subscription starts.
      const run = async (ids: Ids, readAll: boolean) => {
        const { query, variables, column } = operationFor('subscription', field, f, ids);
        const res = await request(`${t.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', accept: 'text/event-stream', authorization: `Bearer ${tokens[token]}` },
          body: JSON.stringify({ query, variables }),
        });
        let text = '';
        if (readAll) text = await res.body.text();
        else res.body.on('error', () => undefined).destroy();
        return { status: res.statusCode, text, column };
      };
      out.push({
        label,
        needed,
        token,
        refused: async () => {
          const { status, text, column } = await run(idsOf(f), true);
          const error = {
            errors: [
              {
                message: `this token may not use Subscription.${name}`,
                locations: [{ line: 1, column }],
                path: [name],
                extensions: { code: 'FORBIDDEN', status: 403, fields: [] },
              },
            ],
          };
          expect({ call: label, status, text }).toEqual({
            call: label,
            status: 403,
            text: `:\n\nevent: next\ndata: ${JSON.stringify(error)}\n\nevent: complete\ndata:\n\n`,
          });
        },
        allowed: async () => {
          const { status } = await run(idsOf(undefined), false);
          notRefused(label, status);
        },
      });
    };
    for (const token of SCOPES) {
      for (const [key, row] of Object.entries(REST)) main(token, key, row);
      for (const [key, row] of Object.entries(DEPLOYMENT_HOOK)) main(token, key, row, 'deploymentHook');
      for (const [name, needed] of Object.entries(QUERIES)) graphql(token, 'query', 'Query', name, needed);
      for (const [name, needed] of Object.entries(MUTATIONS)) graphql(token, 'mutation', 'Mutation', name, needed);
      for (const [name, needed] of Object.entries(SUBSCRIPTIONS)) subscription(token, name, needed);
    }
    for (const [key, row] of Object.entries(LEGACY)) legacy(key, row);
    return out;
  }

  test('a call without its scope is a 403 with the exact error and changes nothing; with it, never a 401 or 403', async () => {
    const all = calls();
    const isRefused = (c: Call) => !allows(c.token === 'legacy' ? 'read' : c.token, c.needed);
    const refused = all.filter(isRefused);
    const allowed = all.filter((c) => !isRefused(c));

    // What the README promises, at least: write cannot touch targets and deployments (nor their
    // hooks), read cannot make hooks, deploy cannot manage tokens, event subscriptions or read the
    // audit log, the read-scope legacy listener cannot write.
    const labels = refused.map((c) => c.label);
    expect(labels).toEqual(
      expect.arrayContaining([
        'write POST /deployment_targets',
        'write DELETE /deployment_targets/:targetId/deployments/:id',
        'write Mutation.createDeployment',
        'write POST /deployment_targets/:target_id/deployments/:deployment_id/hooks',
        "write DELETE /deploy_hooks/:id (the deployment's hook)",
        'read POST /apps/:app_id/hooks',
        'read PUT /apps/:app_id/automation',
        'read POST /template_repos/:template_repo_id/hooks',
        'deploy GET /event_subscriptions',
        'deploy POST /event_deliveries/:id/resend',
        'deploy GET /audit_events',
        'deploy Mutation.createEventSubscription',
        'deploy Query.auditExport',
        'deploy Mutation.createApiToken',
        'deploy Mutation.revokeApiToken',
        'deploy Query.apiTokens',
        'legacy (read) POST /apps',
        'legacy (read) DELETE /registries/:id',
        'legacy (read) POST /deployment_targets/:targetId/deployments',
      ]),
    );

    // The refused calls first, with the fixtures' real ids and bodies that would be accepted: the
    // database (its domain events too), the agent's orchestrator, the template repo and the
    // subscribed receiver are as they were.
    const state = async () => ({
      tables: await digestTables(t),
      adapterCalls: adapter.calls.length,
      repoHead: git(f.repoPath, 'rev-parse', 'HEAD'),
      received: receiver.received.length,
    });
    const before = await state();
    for (const call of refused) await call.refused();
    expect(await state()).toEqual(before);

    for (const call of allowed) await call.allowed();
  }, 300_000);
});
