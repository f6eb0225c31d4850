import { expect } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createHash } from 'node:crypto';
import os from 'node:os';
import path from 'node:path';
import { ApolloClient, ApolloLink, HttpLink, InMemoryCache, gql } from '@apollo/client';
import { addTypenameToDocument } from '@apollo/client/utilities';
import { print } from 'graphql';
import { BatchHttpLink } from '@apollo/client/link/batch-http';
import { PersistedQueryLink } from '@apollo/client/link/persisted-queries';
import { GraphQLClient, ClientError } from 'graphql-request';
import { serverAudits } from 'graphql-http';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { restOperationTexts } from '../../src/graphql/rest-documents';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';

/** One operation as a client POSTed it (the clients send JSON text; a batch is an array of these). */
interface SentOperation {
  query?: string;
  extensions?: { persistedQuery?: { sha256Hash: string } };
}

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

/** Counts the HTTP requests a client makes, and what they carried. */
function countingFetch(token: string = ADMIN_TOKEN) {
  const bodies: unknown[] = [];
  const fetchFn: typeof fetch = async (input, init) => {
    const body = init?.body;
    try {
      bodies.push(typeof body === 'string' && body ? JSON.parse(body) : (body ?? null));
    } catch {
      bodies.push(body);
    }
    const headers = new Headers(init?.headers);
    headers.set('authorization', `Bearer ${token}`);
    return fetch(input, { ...init, headers });
  };
  return { fetchFn, bodies };
}

/** GraphQL over HTTP with the clients frontends use: graphql-request, Apollo Client, graphql-http's audits. */
describe('GraphQL over HTTP with real clients', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ GRAPHQL_BATCH_LIMIT: '3' });
  });
  afterAll(() => t?.close());

  test('graphql-http server audits: every MUST and SHOULD passes, with a token', async () => {
    const { fetchFn } = countingFetch();
    const audits = serverAudits({ url: `${t.url}/graphql`, fetchFn });
    const results = [];
    for (const audit of audits) results.push({ audit: audit.name, ...(await audit.fn()) });
    const failed = results.filter((r) => r.status !== 'ok').map((r) => `${r.audit}: ${'reason' in r ? r.reason : ''}`);
    expect(failed).toEqual([]);
    expect(results.length).toBeGreaterThan(40);
  }, 60_000);

  test('graphql-request: a query, and a typed error from a mutation', async () => {
    const client = new GraphQLClient(`${t.url}/graphql`, { headers: { authorization: `Bearer ${ADMIN_TOKEN}` } });
    expect(await client.request('{ me { username } }')).toEqual({ me: { username: 'admin' } });
    expect(
      await client.request(
        'mutation($input: CreateRegistryInput!) { createRegistry(input: $input) { __typename ... on Error { code fields } } }',
        {
          input: { name: 'r', endpointUrl: 'ftp://r' },
        },
      ),
    ).toEqual({ createRegistry: { __typename: 'ValidationError', code: 'VALIDATION_FAILED', fields: ['endpoint_url'] } });
    const anonymous = new GraphQLClient(`${t.url}/graphql`);
    await expect(anonymous.request('{ me { username } }')).rejects.toBeInstanceOf(ClientError);
  });

  test("Apollo Client's persisted-query link against APQ: the hash alone once the server knows it", async () => {
    const { fetchFn, bodies } = countingFetch();
    const apollo = (cache = new InMemoryCache()) =>
      new ApolloClient({
        cache,
        link: ApolloLink.from([new PersistedQueryLink({ sha256 }), new HttpLink({ uri: `${t.url}/graphql`, fetch: fetchFn })]),
      });
    const query = gql`
      query Registries {
        registries {
          id: databaseId
          name
        }
      }
    `;
    const first = await apollo().query({ query, fetchPolicy: 'network-only' });
    expect(first.data).toEqual({ registries: [{ __typename: 'Registry', id: 0, name: 'Docker Hub' }] });
    // The hash alone, PersistedQueryNotFound, then hash and text (which registers it).
    expect((bodies as SentOperation[]).map((b) => [b.extensions?.persistedQuery?.sha256Hash.length, typeof b.query])).toEqual([
      [64, 'undefined'],
      [64, 'string'],
    ]);

    bodies.length = 0;
    const second = await apollo().query({ query, fetchPolicy: 'network-only' });
    expect(second.data).toEqual(first.data);
    expect(bodies).toEqual([
      {
        operationName: 'Registries',
        variables: {},
        extensions: { persistedQuery: { version: 1, sha256Hash: expect.any(String) }, clientLibrary: expect.anything() },
      },
    ]);
  });

  test("Apollo's BatchHttpLink: three operations in one request, up to GRAPHQL_BATCH_LIMIT", async () => {
    const { fetchFn, bodies } = countingFetch();
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: new BatchHttpLink({ uri: `${t.url}/graphql`, fetch: fetchFn, batchMax: 3, batchInterval: 20 }),
    });
    const results = await Promise.all([
      client.query({
        query: gql`
          query Me {
            me {
              username
            }
          }
        `,
      }),
      client.query({
        query: gql`
          query Types {
            templateTypes {
              name
            }
          }
        `,
      }),
      client.query({
        query: gql`
          query Hub {
            registry(id: 0) {
              id: databaseId
              name
            }
          }
        `,
      }),
    ]);
    expect(results.map((r) => r.data)).toEqual([
      { me: { __typename: 'User', username: 'admin' } },
      { templateTypes: expect.arrayContaining([{ __typename: 'TemplateType', name: 'Default' }]) },
      { registry: { __typename: 'Registry', id: 0, name: 'Docker Hub' } },
    ]);
    expect(bodies).toHaveLength(1);
    expect(bodies[0]).toHaveLength(3);

    const four = Array.from({ length: 4 }, () => ({ query: '{ __typename }' }));
    const over = await t.request('POST', '/graphql', { body: four });
    expect(over.status).toBe(413);
    expect((over.body as { errors: unknown }).errors).toEqual([
      expect.objectContaining({ message: 'Batching is limited to 3 operations per request.' }),
    ]);
  });
});

describe('trusted documents', () => {
  let t: TestApp;
  let dir: string;
  // As Apollo sends it, and as @apollo/generate-persisted-query-manifest lists it: with the
  // __typename fields its cache adds.
  const LISTED = print(
    addTypenameToDocument(gql`
      query Listed {
        me {
          username
        }
      }
    `),
  );

  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'trusted-'));
    const manifest = path.join(dir, 'persisted-query-manifest.json');
    // Apollo's manifest format, as @apollo/generate-persisted-query-manifest writes it.
    await writeFile(
      manifest,
      JSON.stringify({
        format: 'apollo-persisted-query-manifest',
        version: 1,
        operations: [{ id: sha256(LISTED), name: 'Listed', type: 'query', body: LISTED }],
      }),
    );
    t = await startTestApp({ GRAPHQL_TRUSTED_DOCUMENTS: 'true', GRAPHQL_TRUSTED_DOCUMENTS_FILE: manifest });
  });
  afterAll(async () => {
    await t?.close();
    if (dir) await rm(dir, { recursive: true, force: true });
  });

  const refused = {
    errors: [
      expect.objectContaining({
        message: 'this service runs only trusted documents, and this one is not among them',
        extensions: expect.objectContaining({ code: 'FORBIDDEN' }),
      }),
    ],
  };

  test("Apollo's persisted-query link runs a listed document by its id; nothing else runs", async () => {
    const { fetchFn, bodies } = countingFetch();
    const client = new ApolloClient({
      cache: new InMemoryCache(),
      link: ApolloLink.from([new PersistedQueryLink({ sha256 }), new HttpLink({ uri: `${t.url}/graphql`, fetch: fetchFn })]),
    });
    expect(
      (
        await client.query({
          query: gql`
            query Listed {
              me {
                username
              }
            }
          `,
        })
      ).data,
    ).toEqual({ me: { __typename: 'User', username: 'admin' } });
    expect(bodies).toHaveLength(1);
    expect((bodies[0] as SentOperation).query).toBeUndefined();

    // Not listed: by hash (not found, so Apollo sends the text), or as text: refused either way.
    await expect(
      client.query({
        query: gql`
          query Other {
            apps {
              id
            }
          }
        `,
      }),
    ).rejects.toThrow('this service runs only trusted documents');
    const asText = await t.graphql('{ apps { id } }');
    expect(asText.status).toBe(403);
    expect(asText.body).toEqual(refused);
  });

  test('the REST operations are trusted as printed; the listed text runs; introspection still works', async () => {
    const listApps = restOperationTexts().find((text) => text.startsWith('query ListApps'))!;
    const byHash = await t.request('POST', '/graphql', {
      body: { operationName: 'ListApps', extensions: { persistedQuery: { version: 1, sha256Hash: sha256(listApps) } } },
    });
    expect(byHash.body).toEqual({
      data: { appsConnection: { edges: [], pageInfo: { hasNextPage: false, endCursor: expect.any(String) } } },
    });
    expect((await t.graphql(LISTED)).body).toEqual({ data: { me: { __typename: 'User', username: 'admin' } } });
    expect((await t.graphql('{ __schema { queryType { name } } }')).body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  test('subscriptions and WebSocket operations are held to the same list', async () => {
    const client = createWsClient({
      url: `${t.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
      retryAttempts: 0,
    });
    try {
      expect((await client.iterate({ query: LISTED }).next()).value).toEqual({ data: { me: { __typename: 'User', username: 'admin' } } });
      await expect(client.iterate({ query: '{ apps { id } }' }).next()).rejects.toEqual([
        expect.objectContaining({
          message: 'this service runs only trusted documents, and this one is not among them',
          extensions: expect.objectContaining({ code: 'FORBIDDEN' }),
        }),
      ]);
    } finally {
      await client.dispose();
    }
    const sse = await t.request('POST', '/graphql/stream', {
      body: { query: 'subscription { serviceStateChanged { appId } }' },
      headers: { accept: 'text/event-stream' },
    });
    expect(sse.text).toContain('this service runs only trusted documents');
  });
});
