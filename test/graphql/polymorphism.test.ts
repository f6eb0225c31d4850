import { expect } from '@jest/globals';
import { isObjectType, isUnionType, type GraphQLInterfaceType, type GraphQLObjectType, type GraphQLUnionType } from 'graphql';
import { getSchema } from '../../schema/index';
import { startMisbehavingAgent } from '../agent/agent-harness';
import { TestReceiver } from '../automation/receiver';
import { describeDocker, makeImage, TEST_IMAGE, testDockerClient, testDockerHost } from '../helpers/docker';
import { cleanupEngine, instanceId } from '../apps/fixtures';
import { makeGitRepo, pmx } from '../helpers/git';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';
import { startClientFixture, type ClientFixture } from './client-fixtures';

/**
 * README "GraphQL": abstract types resolve to the right member, on both execution paths (compiled
 * with graphql-jit, the default, and graphql-js with GRAPHQL_JIT=false): `node` for every Node
 * type in one operation, the TemplateFields of a search (stored templates and registry images),
 * and every mutation's result union, with an Error member provoked for each and the success
 * member where it is cheap. Mutations and Node types are enumerated from the schema, so a new one
 * without a case here fails.
 */
const schema = getSchema();
const possible = (name: string) =>
  schema.getPossibleTypes(schema.getType(name) as GraphQLInterfaceType | GraphQLUnionType).map((type) => type.name);
const ERROR_TYPES = possible('Error').sort();

interface Ids {
  [key: string]: number | string;
}

/** A call of a mutation: its input (from what earlier calls made) and the member it must answer. */
interface Call {
  input?: (ids: Ids) => Record<string, unknown>;
  typename: string;
  /** For an Error member: its code. */
  code?: string;
  /** Remember the result's databaseId under this name. */
  keep?: string;
}

/** Error members first (they change nothing), one per mutation; then the successes, in order. */
const ERRORS: Record<string, Call | null> = {
  createApiToken: { input: () => ({ name: 'x', scopes: [] }), typename: 'ValidationError', code: 'VALIDATION_FAILED' },
  revokeApiToken: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  createApp: { input: () => ({}), typename: 'BadRequestError', code: 'BAD_REQUEST' },
  createCategory: { input: () => ({ appId: 999999, name: 'x' }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  createDeployment: {
    input: (ids) => ({ targetId: ids.broken, templateId: ids.template }),
    typename: 'UpstreamError',
    code: 'UPSTREAM_FAILED',
  },
  createDeploymentTarget: { input: () => ({ name: 'x', authBlob: 'not a token' }), typename: 'ValidationError', code: 'VALIDATION_FAILED' },
  createRegistry: { input: () => ({ name: 'x', endpointUrl: 'not a url' }), typename: 'ValidationError', code: 'VALIDATION_FAILED' },
  createService: { input: () => ({ appId: 999999, name: 'x', from: TEST_IMAGE }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  // Nothing a caller sends makes this one fail: its success is below.
  createSubscriptionTicket: null,
  createTemplate: { input: () => ({ appId: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  createTemplateRepo: { input: (ids) => ({ name: ids.repoPath }), typename: 'ConflictError', code: 'CONFLICT' },
  deleteApp: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  deleteCategory: { input: (ids) => ({ appId: ids.app, id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  deleteDeployment: { input: (ids) => ({ targetId: ids.east, id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  deleteDeploymentTarget: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  updateDeploymentTarget: { input: () => ({ id: 999999, name: 'x' }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  deleteLocalImage: { input: () => ({ id: 'sha256:' + '0'.repeat(64) }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  deleteRegistry: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  deleteService: { input: (ids) => ({ appId: ids.app, id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  deleteTemplate: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  deleteTemplateRepo: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  previewAppTemplate: { input: () => ({ appId: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  rebuildApp: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  redeployDeployment: { input: (ids) => ({ targetId: ids.east, id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  rollbackApp: { input: () => ({ appId: 999999, revision: 1 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  rollbackDeployment: {
    input: (ids) => ({ targetId: ids.east, deploymentId: 999999, revision: 1 }),
    typename: 'NotFoundError',
    code: 'NOT_FOUND',
  },
  refreshDeploymentTargetMetadata: { input: (ids) => ({ id: ids.silent }), typename: 'UpstreamTimeoutError', code: 'UPSTREAM_TIMEOUT' },
  reloadTemplateRepo: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  saveTemplate: {
    input: (ids) => ({ id: ids.template, repo: ids.repoPath, fileName: '...' }),
    typename: 'ValidationError',
    code: 'VALIDATION_FAILED',
  },
  updateApp: { input: () => ({ id: 999999, name: 'x' }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  updateCategory: { input: (ids) => ({ appId: ids.app, id: 999999, name: 'x' }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  updateRegistry: { input: () => ({ id: 999999, name: 'x' }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  updateService: { input: (ids) => ({ appId: ids.app, id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  updateUser: { input: () => ({ githubAccessToken: 'ghp_mine' }), typename: 'ValidationError', code: 'VALIDATION_FAILED' },
  createDeployHook: { input: () => ({ appId: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  rotateDeployHookSecret: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  revokeDeployHook: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  setAppAutomation: { input: () => ({ appId: 999999, redeployOnTemplateChange: true }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  createEventSubscription: {
    input: () => ({ url: 'ftp://events.example/in', eventTypes: ['deployment.failed'] }),
    typename: 'ValidationError',
    code: 'VALIDATION_FAILED',
  },
  updateEventSubscription: {
    input: (ids) => ({ id: ids.subscription, eventTypes: ['deployment.exploded'] }),
    typename: 'ValidationError',
    code: 'VALIDATION_FAILED',
  },
  rotateEventSubscriptionSecret: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  deleteEventSubscription: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
  resendEventDelivery: { input: () => ({ id: 999999 }), typename: 'NotFoundError', code: 'NOT_FOUND' },
};

const SUCCESSES: [string, Call][] = [
  ['createRegistry', { input: () => ({ name: 'poly', endpointUrl: 'https://poly.example' }), typename: 'Registry', keep: 'registry' }],
  ['updateRegistry', { input: (ids) => ({ id: ids.registry, name: 'poly 2' }), typename: 'Registry' }],
  ['deleteRegistry', { input: (ids) => ({ id: ids.registry }), typename: 'Registry' }],
  ['createApiToken', { input: () => ({ name: 'poly', scopes: ['read'] }), typename: 'IssuedApiToken', keep: 'token' }],
  ['revokeApiToken', { input: (ids) => ({ id: ids.token }), typename: 'ApiToken' }],
  ['createSubscriptionTicket', { typename: 'SubscriptionTicket' }],
  ['updateUser', { input: () => ({ email: 'poly@example.com' }), typename: 'User' }],
  ['createTemplateRepo', { input: (ids) => ({ name: ids.otherRepoPath }), typename: 'TemplateRepo', keep: 'repo' }],
  ['reloadTemplateRepo', { input: (ids) => ({ id: ids.repo }), typename: 'TemplateRepo' }],
  // A hook of each owner: the fixture's app, the new template repo, and a deployment on a real agent.
  ['createDeployHook', { input: (ids) => ({ appId: ids.app, name: 'ci', allowTag: true }), typename: 'IssuedDeployHook', keep: 'hook' }],
  ['rotateDeployHookSecret', { input: (ids) => ({ id: ids.hook }), typename: 'IssuedDeployHook' }],
  ['revokeDeployHook', { input: (ids) => ({ id: ids.hook }), typename: 'DeployHook' }],
  ['createDeployHook', { input: (ids) => ({ templateRepoId: ids.repo, kind: 'github' }), typename: 'IssuedDeployHook', keep: 'repoHook' }],
  ['revokeDeployHook', { input: (ids) => ({ id: ids.repoHook }), typename: 'DeployHook' }],
  ['createDeployHook', { input: (ids) => ({ targetId: ids.east, deploymentId: 1 }), typename: 'IssuedDeployHook', keep: 'deploymentHook' }],
  ['rotateDeployHookSecret', { input: (ids) => ({ id: ids.deploymentHook }), typename: 'IssuedDeployHook' }],
  ['revokeDeployHook', { input: (ids) => ({ id: ids.deploymentHook }), typename: 'DeployHook' }],
  [
    'createEventSubscription',
    {
      input: (ids) => ({ url: ids.receiverUrl, eventTypes: ['app.state_changed'] }),
      typename: 'IssuedEventSubscription',
      keep: 'newSubscription',
    },
  ],
  ['updateEventSubscription', { input: (ids) => ({ id: ids.newSubscription, enabled: false }), typename: 'EventSubscription' }],
  ['rotateEventSubscriptionSecret', { input: (ids) => ({ id: ids.newSubscription }), typename: 'IssuedEventSubscription' }],
  ['deleteEventSubscription', { input: (ids) => ({ id: ids.newSubscription }), typename: 'EventSubscription' }],
  // The attempt the createDeployment error's deployment.failed made (waited for before the successes).
  ['resendEventDelivery', { input: (ids) => ({ id: ids.delivery }), typename: 'EventDelivery' }],
  ['createApp', { input: () => ({ composeYaml: `services:\n  web:\n    image: ${TEST_IMAGE}\n` }), typename: 'App', keep: 'newApp' }],
  ['updateApp', { input: (ids) => ({ id: ids.newApp, name: 'Renamed' }), typename: 'App' }],
  ['setAppAutomation', { input: (ids) => ({ appId: ids.newApp, redeployOnTemplateChange: true }), typename: 'App' }],
  ['rebuildApp', { input: (ids) => ({ id: ids.newApp }), typename: 'App' }],
  ['rollbackApp', { input: (ids) => ({ appId: ids.newApp, revision: 1 }), typename: 'Revision' }],
  ['createCategory', { input: (ids) => ({ appId: ids.newApp, name: 'Poly' }), typename: 'CategoryPosition', keep: 'category' }],
  ['updateCategory', { input: (ids) => ({ appId: ids.newApp, id: ids.category, name: 'Poly 2' }), typename: 'CategoryPosition' }],
  ['deleteCategory', { input: (ids) => ({ appId: ids.newApp, id: ids.category }), typename: 'CategoryPosition' }],
  ['createService', { input: (ids) => ({ appId: ids.newApp, name: 'extra', from: TEST_IMAGE }), typename: 'Service', keep: 'service' }],
  ['updateService', { input: (ids) => ({ appId: ids.newApp, id: ids.service, description: 'changed' }), typename: 'Service' }],
  ['deleteService', { input: (ids) => ({ appId: ids.newApp, id: ids.service }), typename: 'Service' }],
  ['deleteLocalImage', { input: (ids) => ({ id: ids.image }), typename: 'LocalImage' }],
  ['previewAppTemplate', { input: (ids) => ({ appId: ids.newApp }), typename: 'TemplatePreview' }],
  ['createTemplate', { input: (ids) => ({ appId: ids.newApp, name: 'From App' }), typename: 'Template', keep: 'newTemplate' }],
  ['saveTemplate', { input: (ids) => ({ id: ids.newTemplate, repo: ids.otherRepoPath, fileName: 'saved' }), typename: 'SavedTemplate' }],
  ['deleteTemplate', { input: (ids) => ({ id: ids.newTemplate }), typename: 'Template' }],
  ['deleteApp', { input: (ids) => ({ id: ids.newApp }), typename: 'App' }],
  ['deleteTemplateRepo', { input: (ids) => ({ id: ids.repo }), typename: 'TemplateRepo' }],
  [
    'createDeploymentTarget',
    { input: (ids) => ({ name: 'third', authBlob: ids.eastToken }), typename: 'DeploymentTarget', keep: 'target' },
  ],
  ['refreshDeploymentTargetMetadata', { input: (ids) => ({ id: ids.target }), typename: 'DeploymentTarget' }],
  ['updateDeploymentTarget', { input: (ids) => ({ id: ids.target, name: 'renamed' }), typename: 'DeploymentTarget' }],
  [
    'createDeployment',
    { input: (ids) => ({ targetId: ids.target, templateId: ids.template }), typename: 'Deployment', keep: 'deployment' },
  ],
  ['redeployDeployment', { input: (ids) => ({ targetId: ids.target, id: ids.deployment }), typename: 'Deployment', keep: 'redeployed' }],
  ['deleteDeployment', { input: (ids) => ({ targetId: ids.target, id: ids.redeployed }), typename: 'DeletedDeployment' }],
  // Its image pinned by digest as written: revision 1 has a digest to roll back to, with no registry to ask.
  [
    'createDeployment',
    { input: (ids) => ({ targetId: ids.target, templateId: ids.pinnedTemplate }), typename: 'Deployment', keep: 'pinned' },
  ],
  ['rollbackDeployment', { input: (ids) => ({ targetId: ids.target, deploymentId: ids.pinned, revision: 1 }), typename: 'Revision' }],
  ['deleteDeployment', { input: (ids) => ({ targetId: ids.target, id: ids.pinned }), typename: 'DeletedDeployment' }],
  ['deleteDeploymentTarget', { input: (ids) => ({ id: ids.target }), typename: 'DeploymentTarget' }],
];

/** `mutation { name(input) { __typename, Error fields, Node id, databaseId of members that have one } }`. */
function mutationDocument(name: string, withInput: boolean): string {
  const field = schema.getMutationType()!.getFields()[name];
  const union = field.type.toString().replace(/!$/, '');
  const members = possible(union);
  const withId = members.filter((m) => 'databaseId' in (schema.getType(m) as GraphQLObjectType).getFields());
  const selection = [
    '__typename',
    '... on Error { code }',
    ...(members.some((m) => ERROR_TYPES.includes(m) === false && possible('Node').includes(m)) ? ['... on Node { id }'] : []),
    ...withId.map((m) => `... on ${m} { databaseId }`),
    // A category's position on its app has no identity of its own: the category has.
    ...(members.includes('CategoryPosition') ? ['... on CategoryPosition { category { databaseId } }'] : []),
    // Nor has a secret shown once: the hook or the subscription it is for has.
    ...(members.includes('IssuedDeployHook') ? ['... on IssuedDeployHook { hook { databaseId } }'] : []),
    ...(members.includes('IssuedEventSubscription') ? ['... on IssuedEventSubscription { subscription { databaseId } }'] : []),
  ].join(' ');
  const argument = withInput ? `(input: $input)` : '';
  const declared = withInput ? `($input: ${String(field.args[0].type)})` : '';
  return `mutation${declared} { result: ${name}${argument} { ${selection} } }`;
}

const describeRegistry = registryAvailable() ? describe : describe.skip;

describeDocker('abstract types on both execution paths', () => {
  describeRegistry.each([
    ['compiled (graphql-jit)', {}],
    ['graphql-js', { GRAPHQL_JIT: 'false' }],
  ])('abstract types resolve to their members, %s', (_name, env: Record<string, string>) => {
    let f: ClientFixture;
    let registry: TestRegistry;
    let silent: Awaited<ReturnType<typeof startMisbehavingAgent>>;
    let broken: Awaited<ReturnType<typeof startMisbehavingAgent>>;
    let receiver: TestReceiver;
    let instance: string | undefined;
    const ids: Ids = {};

    beforeAll(async () => {
      registry = await startRegistry();
      await registry.push('team/poly-image', 'v1');
      // An agent that accepts and never answers: the UpstreamTimeoutError member.
      silent = await startMisbehavingAgent(() => undefined);
      // And one that drops every connection: the UpstreamError member.
      broken = await startMisbehavingAgent((req) => req.socket.destroy());
      // Events out, on loopback: a logged delivery for resendEventDelivery.
      receiver = await TestReceiver.start();
      ids.receiverUrl = receiver.url;
      // The real engine: apps' containers are made, rebuilt and removed, and an image is deleted.
      f = await startClientFixture({
        ...env,
        DOCKER_HOST: testDockerHost(),
        REGISTRY_ALLOW_PRIVATE: 'true',
        REGISTRY_TIMEOUT_MS: '5000',
        AGENT_TIMEOUT_MS: '500',
        WEBHOOK_ALLOW_PRIVATE: 'true',
      });
      instance = await instanceId(f.t);
      const docker = testDockerClient();
      try {
        const ref = `platform-test/poly-delete-${Date.now()}:1`;
        await makeImage(docker, ref, ['true']);
        ids.image = (await docker.inspectImage(ref)).Id;
      } finally {
        await docker.close();
      }
      ids.repoPath = makeGitRepo({
        'poly.pmx': pmx('Poly Stack', { keywords: 'poly' }),
        'z-pinned.pmx': pmx('Pinned Stack', {
          images: `  - name: web\n    source: ${TEST_IMAGE.split(':')[0]}@sha256:${'2'.repeat(64)}\n`,
        }),
      });
      ids.otherRepoPath = makeGitRepo({ 'other.pmx': pmx('Other') });
      expect((await f.t.request('POST', '/template_repos', { body: { name: ids.repoPath } })).status).toBe(200);
      expect((await f.t.request('PATCH', '/registries/0', { body: { enabled: false } })).status).toBe(204);
      expect((await f.t.request('POST', '/registries', { body: { name: 'Team', endpoint_url: registry.url } })).status).toBe(201);
      await f.query('mutation { createApiToken(input: { name: "ci", scopes: [read] }) { __typename } }');
      ids.app = f.appId;
      ids.east = f.targets[0].id;
      ids.eastToken = f.targets[0].agent.token;
      // Stored while the agent does not answer (its metadata then says why); refreshing it times out.
      const stored = await f.t.request<{ id: number }>('POST', '/deployment_targets', {
        body: { name: 'silent', auth_blob: silent.token },
      });
      expect(stored.status).toBe(200);
      ids.silent = stored.body.id;
      const dropped = await f.t.request<{ id: number }>('POST', '/deployment_targets', {
        body: { name: 'broken', auth_blob: broken.token },
      });
      expect(dropped.status).toBe(200);
      ids.broken = dropped.body.id;
      // Told of failed deployments: the createDeployment error below is one.
      const subscribed = await f.t.request<{ subscription: { id: number } }>('POST', '/event_subscriptions', {
        body: { url: receiver.url, event_types: ['deployment.failed'] },
      });
      expect(subscribed.status).toBe(201);
      ids.subscription = subscribed.body.subscription.id;
      expect((await f.t.request('POST', `/apps/${ids.app}/hooks`, { body: { name: 'node' } })).status).toBe(201);
      const templates = await f.query<{ templates: { databaseId: number; name: string }[] }>('{ templates { databaseId name } }');
      ids.template = templates.data.templates.find((t) => t.name === 'Poly Stack')!.databaseId;
      ids.pinnedTemplate = templates.data.templates.find((t) => t.name === 'Pinned Stack')!.databaseId;
    }, 120_000);

    afterAll(async () => {
      await f?.close();
      await registry?.stop();
      await silent?.close();
      await broken?.close();
      await receiver?.close();
      if (instance) await cleanupEngine(instance);
      // The image deleteLocalImage deletes, should a failure have come first.
      const docker = testDockerClient();
      await docker.removeImage(String(ids.image), { force: true }).catch(() => undefined);
      await docker.close();
    });

    test('node(id:) for every Node type, as aliases in one operation, with nodes(ids:) beside them', async () => {
      const all = (
        await f.query<{
          apps: { id: string; categories: { category: { id: string } }[]; services: { id: string }[] }[];
          templates: { id: string }[];
          templateRepos: { id: string }[];
          registries: { id: string }[];
          deploymentTargets: { id: string; deployments: { id: string }[] }[];
          apiTokens: { id: string }[];
          deployHooks: { id: string }[];
          eventSubscriptions: { id: string }[];
        }>(`{
        apps { id categories { category { id } } services { id } } templates { id } templateRepos { id }
        registries { id } deploymentTargets { id deployments { id } } apiTokens { id } deployHooks { id } eventSubscriptions { id }
      }`)
      ).data;
      const one: Record<string, string> = {
        App: all.apps[0].id,
        Service: all.apps[0].services[0].id,
        Category: all.apps[0].categories[0].category.id,
        Template: all.templates[0].id,
        TemplateRepo: all.templateRepos[0].id,
        Registry: all.registries[0].id,
        DeploymentTarget: all.deploymentTargets[0].id,
        Deployment: all.deploymentTargets[0].deployments[0].id,
        ApiToken: all.apiTokens[0].id,
        DeployHook: all.deployHooks[0].id,
        EventSubscription: all.eventSubscriptions[0].id,
      };
      const types = possible('Node').sort();
      expect(Object.keys(one).sort()).toEqual(types);
      const aliases = types.map((type, i) => `n${i}: node(id: $id${i}) { __typename id ... on ${type} { databaseId } }`);
      const query = `query Every(${types.map((_, i) => `$id${i}: ID!`).join(', ')}, $ids: [ID!]!) { ${aliases.join(' ')} nodes(ids: $ids) { __typename id } }`;
      const variables: Record<string, unknown> = { ids: types.map((type) => one[type]) };
      types.forEach((type, i) => (variables[`id${i}`] = one[type]));
      const res = await f.t.graphql(query, variables);
      expect(res.body).toEqual({
        data: {
          ...Object.fromEntries(types.map((type, i) => [`n${i}`, { __typename: type, id: one[type], databaseId: expect.any(Number) }])),
          nodes: types.map((type) => ({ __typename: type, id: one[type] })),
        },
      });
    });

    test('TemplateFields: a search answers stored templates and registry images, each as its own type', async () => {
      const res = await f.t.graphql(`{
      search(q: "poly") {
        items { __typename name databaseId ... on Template { id } ... on RegistryImageTemplate { registryName tags } }
        errors { registryName }
      }
    }`);
      expect(res.body).toEqual({
        data: {
          search: {
            items: [
              { __typename: 'Template', name: 'Poly Stack', id: expect.any(String) as unknown, databaseId: ids.template },
              { __typename: 'RegistryImageTemplate', name: 'team/poly-image', registryName: 'Team', tags: ['v1'], databaseId: null },
            ],
            errors: [],
          },
        },
      });
    });

    test('every mutation answers its result union: an Error member, and the success member', async () => {
      const mutations = Object.keys(schema.getMutationType()!.getFields()).sort();
      expect(Object.keys(ERRORS).sort()).toEqual(mutations);
      expect([...new Set(SUCCESSES.map(([name]) => name))].sort()).toEqual(mutations);
      // Every union is of the six Error members and one success type.
      for (const name of mutations) {
        const union = schema.getMutationType()!.getFields()[name].type.toString().replace(/!$/, '');
        expect(isUnionType(schema.getType(union))).toBe(true);
        expect(possible(union).filter((m) => !ERROR_TYPES.includes(m))).toHaveLength(1);
      }

      const call = async (name: string, { input, typename, code, keep }: Call) => {
        const field = schema.getMutationType()!.getFields()[name];
        const res = await f.t.graphql<{
          result: {
            __typename: string;
            code?: string;
            databaseId?: number;
            category?: { databaseId: number };
            hook?: { databaseId: number };
            subscription?: { databaseId: number };
          };
        }>(mutationDocument(name, field.args.length > 0), input ? { input: input(ids) } : {});
        const result = res.body.data?.result;
        expect({ mutation: name, typename: result?.__typename, code: result?.code, errors: res.body.errors }).toEqual({
          mutation: name,
          typename,
          code,
          errors: undefined,
        });
        expect(possible(field.type.toString().replace(/!$/, ''))).toContain(typename);
        if (keep) ids[keep] = (result.databaseId ?? (result.category ?? result.hook ?? result.subscription)?.databaseId)!;
      };

      const errorsSeen = new Set<string>();
      for (const [name, failing] of Object.entries(ERRORS)) {
        if (!failing) continue;
        await call(name, failing);
        errorsSeen.add(failing.typename);
      }
      // The createDeployment error's deployment.failed reaches the receiver, then its attempt is logged.
      await receiver.until((got) => got.some((r) => r.json.type === 'deployment.failed'), 'the deployment.failed delivery');
      const deadline = Date.now() + 60_000;
      for (;;) {
        const log = await f.t.request<{ id: number; status: string }[]>('GET', `/event_subscriptions/${ids.subscription}/deliveries`);
        const delivered = log.body.find((d) => d.status === 'delivered');
        if (delivered) {
          ids.delivery = delivered.id;
          break;
        }
        if (Date.now() > deadline) throw new Error(`no delivery logged: ${log.text}`);
        await new Promise((resolve) => setTimeout(resolve, 200));
      }
      for (const [name, succeeding] of SUCCESSES) await call(name, succeeding);
      // Between them, the calls answered every Error member there is.
      expect([...errorsSeen].sort()).toEqual(ERROR_TYPES);
    }, 120_000);
  });
});

// The schema the test enumerates from is the one served.
test('the enumerations come from the served schema: every mutation result is a union, Node and Error have members', () => {
  expect(possible('Node').length).toBeGreaterThan(5);
  expect(ERROR_TYPES).toEqual([
    'BadRequestError',
    'ConflictError',
    'NotFoundError',
    'UpstreamError',
    'UpstreamTimeoutError',
    'ValidationError',
  ]);
  expect(
    Object.values(schema.getMutationType()!.getFields()).every((f) => isUnionType(schema.getType(f.type.toString().replace(/!$/, '')))),
  ).toBe(true);
  expect(isObjectType(schema.getType('RegistryImageTemplate'))).toBe(true);
});
