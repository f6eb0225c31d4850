import { expect } from '@jest/globals';
import { ApolloClient, gql, HttpLink, InMemoryCache, type TypePolicies } from '@apollo/client';
import { relayStylePagination } from '@apollo/client/utilities';
import { cacheExchange, type KeyingConfig } from '@urql/exchange-graphcache';
import { Client as UrqlClient, fetchExchange } from '@urql/core';
import { readFileSync } from 'node:fs';
import { filter, firstValueFrom } from 'rxjs';
import path from 'node:path';
import {
  createOperationDescriptor,
  Environment,
  fetchQuery,
  Network,
  RecordSource,
  Store,
  type GraphQLResponse,
  type RequestParameters,
  type Variables,
} from 'relay-runtime';
import type { IntrospectionQuery } from 'graphql';
import type { deploymentsNodeQuery$data } from './relay/__generated__/deploymentsNodeQuery.graphql';
import type { deploymentsTargetsQuery$data } from './relay/__generated__/deploymentsTargetsQuery.graphql';
import nodeQuery from './relay/__generated__/deploymentsNodeQuery.graphql';
import targetsQuery from './relay/__generated__/deploymentsTargetsQuery.graphql';
import { startClientFixture, type ClientFixture } from './client-fixtures';

const SCHEMA_DIR = path.join(__dirname, '../../schema');
const { possibleTypes } = JSON.parse(readFileSync(path.join(SCHEMA_DIR, 'possible-types.json'), 'utf8')) as {
  possibleTypes: Record<string, string[]>;
};
const introspection = JSON.parse(readFileSync(path.join(SCHEMA_DIR, 'introspection.json'), 'utf8')) as IntrospectionQuery;

const TARGETS = `query Targets {
  deploymentTargets {
    id databaseId name
    deployments { id databaseId name template target { id name } status { services { orchestratorId actualState } } }
  }
}`;

const SITE = `query Site($id: Int!) {
  app(id: $id) {
    id databaseId name
    categories { position category { id name } }
    services {
      id name
      categories { position category { id name } }
      links { alias serviceName service { id name } }
    }
  }
}`;

interface TargetsData {
  deploymentTargets: {
    id: string;
    name: string;
    deployments: {
      id: string;
      databaseId: number;
      name: string;
      target: { id: string; name: string };
      status: { services: { orchestratorId: string; actualState: string }[] };
    }[];
  }[];
}

interface Placed {
  position: number;
  category: { id: string; name: string };
}

interface SiteService {
  id: string;
  name: string;
  categories: Placed[];
  links: unknown[];
}

interface SiteData {
  app: { categories: Placed[]; services: SiteService[] };
}

interface RegistriesPage {
  registriesConnection: { edges: unknown[]; pageInfo: { hasNextPage: boolean; endCursor: string } };
}

/** The service whose name starts with `prefix` (the test fails here when there is none). */
function startingWith(services: SiteService[], prefix: string): SiteService {
  const found = services.find((s) => s.name.startsWith(prefix));
  if (!found) throw new Error(`no service named ${prefix}* among ${services.map((s) => s.name).join(', ')}`);
  return found;
}

/** Clients add `__typename` to every selection; the comparison is about the data. */
function withoutTypename(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(withoutTypename);
  if (value && typeof value === 'object') {
    return Object.fromEntries(
      Object.entries(value)
        .filter(([k]) => k !== '__typename')
        .map(([k, v]) => [k, withoutTypename(v)]),
    );
  }
  return value;
}

/**
 * How the cache keyed these objects while GraphQL ids were the integers of interface A (a
 * deployment by its agent-side id, a link by the linked service's id, a category with its
 * position by the category's id, an orchestrator service by its id): the same clients, told the
 * old identities, return data the server never sent. This proves the assertions below can fail.
 */
const OLD_IDENTITIES: TypePolicies = {
  Deployment: { keyFields: ['databaseId'] },
  DeploymentServiceState: { keyFields: ['orchestratorId'] },
  CategoryPosition: { keyFields: ['category', ['id']] },
  ServiceLink: { keyFields: ['service', ['id']] },
};

describe('normalized client caches return what the server sent', () => {
  let f: ClientFixture;
  let server: { targets: TargetsData; site: SiteData };

  beforeAll(async () => {
    f = await startClientFixture();
    server = {
      targets: (await f.query<TargetsData>(TARGETS)).data,
      site: (await f.query<SiteData>(SITE, { id: f.appId })).data,
    };
  });
  afterAll(() => f?.close());

  test('the data is the corrupting kind: deployment 1 on both targets, shared categories at other positions, two links to one service', () => {
    const [east, west] = server.targets.deploymentTargets;
    expect(east.deployments.map((d) => d.databaseId)).toEqual([1]);
    expect(west.deployments.map((d) => d.databaseId)).toEqual([1]);
    expect(east.deployments[0].id).not.toBe(west.deployments[0].id);
    expect([east.deployments[0].name, west.deployments[0].name]).toEqual(['Blog', 'Shop']);
    expect(east.deployments[0].target).toEqual({ id: east.id, name: 'east' });
    expect(east.deployments[0].status.services[0].orchestratorId).toBe(west.deployments[0].status.services[0].orchestratorId);

    const app = server.site.app;
    const web = startingWith(app.services, 'web');
    const worker = startingWith(app.services, 'worker');
    const db = startingWith(app.services, 'db');
    expect(app.categories.map((c) => [c.category.name, c.position])).toEqual([
      ['Web', 0],
      ['DB', 1],
    ]);
    expect(web.categories).toEqual([{ position: 5, category: app.categories[0].category }]);
    expect(db.categories).toEqual([{ position: 0, category: app.categories[1].category }]);
    expect(web.links).toEqual([{ alias: 'mysql', serviceName: db.name, service: { id: db.id, name: db.name } }]);
    expect(worker.links).toEqual([{ alias: 'database', serviceName: db.name, service: { id: db.id, name: db.name } }]);
  });

  describe('Apollo Client (InMemoryCache with the published possibleTypes)', () => {
    const apollo = (typePolicies: TypePolicies = {}) =>
      new ApolloClient({
        link: new HttpLink({ uri: `${f.t.url}/graphql`, fetch: f.fetch }),
        cache: new InMemoryCache({ possibleTypes, typePolicies }),
      });

    async function readBack(client: ApolloClient) {
      await client.query({ query: gql(TARGETS) });
      await client.query({ query: gql(SITE), variables: { id: f.appId } });
      return {
        targets: withoutTypename(client.readQuery({ query: gql(TARGETS) })),
        site: withoutTypename(client.readQuery({ query: gql(SITE), variables: { id: f.appId } })),
      };
    }

    test('deployments of two targets, categories and links read back as sent', async () => {
      expect(await readBack(apollo())).toEqual(server);
    });

    test('keyed by the old integer ids, the same cache mixes them up', async () => {
      const old = (await readBack(apollo(OLD_IDENTITIES))) as { targets: TargetsData; site: SiteData };
      // One cache entry for both targets' deployment 1: each target shows the same one.
      expect(old.targets.deploymentTargets[0].deployments).toEqual(old.targets.deploymentTargets[1].deployments);
      expect(old.targets).not.toEqual(server.targets);
      expect(old.site).not.toEqual(server.site);
    });

    test('relay-style pagination with fetchMore gathers the pages into what one request answers', async () => {
      for (const name of ['p1', 'p2', 'p3', 'p4'])
        await f.t.request('POST', '/registries', { body: { name, endpoint_url: `https://${name}.example` } });
      const PAGE = gql`
        query Registries($first: Int!, $after: String) {
          registriesConnection(first: $first, after: $after) {
            edges {
              cursor
              node {
                id
                databaseId
                name
              }
            }
            pageInfo {
              hasNextPage
              endCursor
            }
          }
        }
      `;
      const client = new ApolloClient({
        link: new HttpLink({ uri: `${f.t.url}/graphql`, fetch: f.fetch }),
        cache: new InMemoryCache({ possibleTypes, typePolicies: { Query: { fields: { registriesConnection: relayStylePagination() } } } }),
      });
      const observable = client.watchQuery({ query: PAGE, variables: { first: 2 } });
      const subscription = observable.subscribe(() => undefined);
      let result: { data: unknown } = await firstValueFrom(observable.pipe(filter((r) => r.dataState === 'complete')));
      let fetches = 1;
      const connection = () => (result.data as RegistriesPage).registriesConnection;
      while (connection().pageInfo.hasNextPage && fetches < 10) {
        await observable.fetchMore({ variables: { after: connection().pageInfo.endCursor } });
        // The merged pages, as the cache now answers the watched query.
        result = { data: client.readQuery({ query: PAGE, variables: { first: 2 } }) };
        fetches++;
      }
      subscription.unsubscribe();
      expect(fetches).toBe(3);
      const all = (await f.query<RegistriesPage>('{ registriesConnection(first: 100) { edges { cursor node { id databaseId name } } } }'))
        .data.registriesConnection;
      expect(withoutTypename(connection().edges)).toEqual(all.edges);
      expect(all.edges).toHaveLength(5);
    });

    test('a typed error result keeps code, message and fields', async () => {
      const CREATE = `mutation($input: CreateRegistryInput!) {
        createRegistry(input: $input) { __typename ... on Registry { id name } ... on Error { code message fields } }
      }`;
      const input = { name: 'bad', endpointUrl: 'ftp://bad' };
      const sent = (await f.query<{ createRegistry: unknown }>(CREATE, { input })).data;
      expect(sent.createRegistry).toEqual({
        __typename: 'ValidationError',
        code: 'VALIDATION_FAILED',
        message: expect.any(String),
        fields: ['endpoint_url'],
      });
      const { data } = await apollo().mutate({ mutation: gql(CREATE), variables: { input } });
      expect(data).toEqual(sent);
      // Without the published possibleTypes the cache cannot match `... on Error` to ValidationError.
      const blind = new ApolloClient({ link: new HttpLink({ uri: `${f.t.url}/graphql`, fetch: f.fetch }), cache: new InMemoryCache() });
      const { data: unmatched } = await blind.mutate({ mutation: gql(CREATE), variables: { input } });
      expect(unmatched).not.toEqual(sent);
    });
  });

  describe('urql with graphcache (schema-aware, from the published introspection)', () => {
    // Types that are not Node are values of their parent: graphcache embeds them, as it is told.
    const embedded: KeyingConfig = Object.fromEntries(
      introspection.__schema.types
        .filter((t) => t.kind === 'OBJECT' && !t.name.startsWith('__') && !t.interfaces.some((i) => i.name === 'Node'))
        .map((t) => [t.name, () => null]),
    );
    const urql = (keys: KeyingConfig) =>
      new UrqlClient({
        url: `${f.t.url}/graphql`,
        fetch: f.fetch,
        exchanges: [cacheExchange({ schema: introspection, keys }), fetchExchange],
      });

    async function readBack(client: UrqlClient) {
      await client.query(TARGETS, {}).toPromise();
      await client.query(SITE, { id: f.appId }).toPromise();
      const cached = async (query: string, variables: Record<string, unknown>) => {
        const result = await client.query(query, variables, { requestPolicy: 'cache-only' }).toPromise();
        expect(result.error).toBeUndefined();
        return withoutTypename(result.data);
      };
      return { targets: await cached(TARGETS, {}), site: await cached(SITE, { id: f.appId }) };
    }

    test('deployments of two targets, categories and links read back as sent', async () => {
      expect(await readBack(urql(embedded))).toEqual(server);
    });

    test('keyed by the old integer ids, the same cache mixes them up', async () => {
      const old = (await readBack(
        urql({
          ...embedded,
          Deployment: (d) => `${d.databaseId as number}`,
          DeploymentServiceState: (s) => s.orchestratorId as string,
          CategoryPosition: (c) => String((c.category as { id: string }).id),
          ServiceLink: (l) => String((l.service as { id: string }).id),
        }),
      )) as { targets: TargetsData; site: SiteData };
      expect(old.targets).not.toEqual(server.targets);
      expect(old.site).not.toEqual(server.site);
    });
  });

  describe('relay-runtime (operations compiled by relay-compiler)', () => {
    test('a node(id:) refetch of one deployment updates it alone, and the store still equals the server', async () => {
      const fetchFn = async (params: RequestParameters, variables: Variables) => {
        const response = await f.fetch(`${f.t.url}/graphql`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ query: params.text, variables }),
        });
        return (await response.json()) as GraphQLResponse;
      };
      const environment = new Environment({ network: Network.create(fetchFn), store: new Store(new RecordSource()) });
      const targetsOperation = createOperationDescriptor(targetsQuery, {});
      await fetchQuery(environment, targetsQuery, {}).toPromise();
      const sentTargets = (await f.query<deploymentsTargetsQuery$data>(targetsQuery.params.text!)).data;
      expect(withoutTypename(environment.lookup(targetsOperation.fragment).data)).toEqual(withoutTypename(sentTargets));

      // West's services stop; refetch west's deployment 1 by its global id.
      const west = f.targets[1];
      west.actualState.value = 'stopped';
      const westDeployment = sentTargets.deploymentTargets[1].deployments?.[0];
      if (!westDeployment) throw new Error('west has no deployment');
      const refetched = await fetchQuery(environment, nodeQuery, { id: westDeployment.id }).toPromise();
      expect((refetched as deploymentsNodeQuery$data).node).toMatchObject({
        id: westDeployment.id,
        databaseId: 1,
        name: 'Shop',
        target: { name: 'west' },
      });

      const after = environment.lookup(targetsOperation.fragment).data as deploymentsTargetsQuery$data;
      expect(after.deploymentTargets[0].deployments?.[0]?.status?.services.map((s) => s.actualState)).toEqual([
        'running 2/2',
        'running 2/2',
      ]);
      expect(after.deploymentTargets[1].deployments?.[0]?.status?.services.map((s) => s.actualState)).toEqual(['stopped', 'stopped']);
      expect(withoutTypename(after)).toEqual(withoutTypename((await f.query(targetsQuery.params.text!)).data));
      west.actualState.value = 'running 2/2';
    });
  });
});
