import { expect } from '@jest/globals';
import { ApolloClient, gql, HttpLink, InMemoryCache } from '@apollo/client';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { GraphQLInterfaceType, GraphQLResolveInfo } from 'graphql';
import {
  Environment,
  fetchQuery,
  Network,
  RecordSource,
  Store,
  type GraphQLResponse,
  type RequestParameters,
  type Variables,
} from 'relay-runtime';
import { NODE_TYPES } from '../../schema/global-id';
import { getSchema } from '../../schema/index';
import { makeGitRepo, pmx } from '../helpers/git';
import nodesQuery from './relay/__generated__/nodesEveryTypeQuery.graphql';
import { startClientFixture, type ClientFixture } from './client-fixtures';

const { possibleTypes } = JSON.parse(readFileSync(path.join(__dirname, '../../schema/possible-types.json'), 'utf8')) as {
  possibleTypes: Record<string, string[]>;
};

interface Identity {
  id: string;
  databaseId: number;
}

/** One id of every Node type, in an order that does not start with Template. */
async function oneOfEach(f: ClientFixture): Promise<[string, Identity][]> {
  const repo = await f.t.request<{ id: number }>('POST', '/template_repos', { body: { name: makeGitRepo({ 'a.pmx': pmx('A') }) } });
  await f.t.request('POST', `/template_repos/${repo.body.id}/hooks`, { body: { kind: 'github' } });
  await f.t.request('POST', '/registries', { body: { name: 'r2', endpoint_url: 'https://r2.example' } });
  await f.query('mutation { createApiToken(input: { name: "ci", scopes: [read] }) { __typename } }');
  await f.t.request('POST', '/event_subscriptions', { body: { url: 'https://hooks.example', event_types: ['deployment.failed'] } });
  const all = (
    await f.query<{
      apps: (Identity & { categories: { category: Identity }[]; services: Identity[] })[];
      templates: Identity[];
      templateRepos: Identity[];
      registries: Identity[];
      deploymentTargets: (Identity & { deployments: Identity[] })[];
      apiTokens: Identity[];
      deployHooks: Identity[];
      eventSubscriptions: Identity[];
    }>(`{
      apps { id databaseId categories { category { id databaseId } } services { id databaseId } }
      templates { id databaseId } templateRepos { id databaseId } registries { id databaseId }
      deploymentTargets { id databaseId deployments { id databaseId } } apiTokens { id databaseId }
      deployHooks { id databaseId } eventSubscriptions { id databaseId }
    }`)
  ).data;
  return [
    ['App', all.apps[0]],
    ['Registry', all.registries[0]],
    ['TemplateRepo', all.templateRepos[0]],
    ['DeploymentTarget', all.deploymentTargets[0]],
    ['Deployment', all.deploymentTargets[1].deployments[0]],
    ['Service', all.apps[0].services[0]],
    ['Category', all.apps[0].categories[0].category],
    ['ApiToken', all.apiTokens[0]],
    ['Template', all.templates[0]],
    ['DeployHook', all.deployHooks[0]],
    ['EventSubscription', all.eventSubscriptions[0]],
  ];
}

const NODES = nodesQuery.params.text!;

test('Node never takes one type for another by isTypeOf: an unbranded registry is not a Template', () => {
  const schema = getSchema();
  const node = schema.getType('Node') as GraphQLInterfaceType;
  const info = { schema } as GraphQLResolveInfo;
  const registry = { id: 0, name: 'Docker Hub', endpointUrl: 'https://index.docker.io', enabled: true };
  const deployment = { targetId: 1, deploymentId: 1, name: 'Blog' };
  for (const value of [registry, deployment]) expect(node.resolveType?.(value, {}, info, node)).toBeUndefined();
});

describe.each([
  ['compiled (graphql-jit)', {}],
  ['graphql-js', { GRAPHQL_JIT: 'false' }],
])('nodes(ids:) over every Node type in one operation, %s', (_name, env: Record<string, string>) => {
  let f: ClientFixture;
  let expected: [string, Identity][];

  beforeAll(async () => {
    f = await startClientFixture(env);
    expected = await oneOfEach(f);
  });
  afterAll(() => f?.close());

  const answer = () => ({
    data: { nodes: expected.map(([type, node]) => ({ __typename: type, id: node.id, databaseId: node.databaseId })) },
  });
  const ids = () => expected.map(([, node]) => node.id);

  test('the fixture holds every Node type', () => {
    expect(expected.map(([type]) => type).sort()).toEqual([...NODE_TYPES].sort());
  });

  test('the direct path (POST) and yoga (GET) answer each id as its own type', async () => {
    const post = await f.t.graphql(NODES, { ids: ids() });
    expect(post.body).toEqual(answer());
    const query = `query=${encodeURIComponent(NODES)}&variables=${encodeURIComponent(JSON.stringify({ ids: ids() }))}`;
    const get = await f.t.request('GET', `/graphql?${query}`);
    expect(get.body).toEqual(answer());
  });

  test('Apollo Client normalises each node under its own type', async () => {
    const client = new ApolloClient({
      link: new HttpLink({ uri: `${f.t.url}/graphql`, fetch: f.fetch }),
      cache: new InMemoryCache({ possibleTypes }),
    });
    const result = await client.query({ query: gql(NODES), variables: { ids: ids() }, fetchPolicy: 'network-only' });
    expect(result.data).toEqual(answer().data);
    const stored = client.cache.extract() as Record<string, { __typename?: string; id?: string }>;
    for (const [type, node] of expected) expect(stored[`${type}:${node.id}`]).toMatchObject({ __typename: type, id: node.id });
  });

  test('relay-runtime stores each record under its global id with its own type', async () => {
    const fetchFn = async (params: RequestParameters, variables: Variables) => {
      const response = await f.fetch(`${f.t.url}/graphql`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ query: params.text, variables }),
      });
      return (await response.json()) as GraphQLResponse;
    };
    const source = new RecordSource();
    const environment = new Environment({ network: Network.create(fetchFn), store: new Store(source) });
    await fetchQuery(environment, nodesQuery, { ids: ids() }).toPromise();
    for (const [type, node] of expected)
      expect(source.get(node.id)).toMatchObject({ __typename: type, id: node.id, databaseId: node.databaseId });
  });
});
