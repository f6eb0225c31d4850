import { expect } from '@jest/globals';
import { startTestApp, type TestApp } from '../helpers/app';

interface RegistryPage {
  registriesConnection: {
    totalCount: number;
    edges: { cursor: string; node: { id: string; name: string } }[];
    nodes: { name: string }[];
    pageInfo: { hasNextPage: boolean; hasPreviousPage: boolean; startCursor: string | null; endCursor: string };
  };
}

/** The GraphQL API beyond interface A: Relay connections and typed mutation errors. */
describe('GraphQL connections and typed errors', () => {
  let t: TestApp;
  const ids: number[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    for (let i = 1; i <= 7; i++) {
      const res = await t.request<{ id: number }>('POST', '/registries', {
        body: { name: `r${i}`, endpoint_url: `https://r${i}.example` },
      });
      ids.push(res.body.id);
    }
  });
  afterAll(() => t?.close());

  const page = `query($first: Int, $after: String, $last: Int, $before: String) {
    registriesConnection(first: $first, after: $after, last: $last, before: $before) {
      totalCount
      edges { cursor node { id name } }
      nodes { name }
      pageInfo { hasNextPage hasPreviousPage startCursor endCursor }
    }
  }`;

  test('first/after walks every item once, in id order, with the total', async () => {
    const seen: string[] = [];
    let after: string | undefined;
    let pages = 0;
    for (;;) {
      const res = await t.graphql<RegistryPage>(page, { first: 3, after });
      expect(res.body.errors).toBeUndefined();
      const c = res.body.data.registriesConnection;
      expect(c.totalCount).toBe(8);
      expect(c.nodes.map((n) => n.name)).toEqual(c.edges.map((e) => e.node.name));
      expect(c.pageInfo.hasPreviousPage).toBe(after !== undefined);
      seen.push(...c.nodes.map((n) => n.name));
      pages++;
      if (!c.pageInfo.hasNextPage) break;
      after = c.pageInfo.endCursor;
    }
    expect(pages).toBe(3);
    // The seeded Docker Hub first.
    expect(seen).toEqual(['Docker Hub', 'r1', 'r2', 'r3', 'r4', 'r5', 'r6', 'r7']);
  });

  test('last/before pages backwards; an item added meanwhile does not shift the pages (keyset)', async () => {
    const last = (await t.graphql<RegistryPage>(page, { last: 2 })).body.data.registriesConnection;
    expect(last.nodes).toEqual([{ name: 'r6' }, { name: 'r7' }]);
    expect(last.pageInfo).toMatchObject({ hasPreviousPage: true, hasNextPage: false });
    const first = (await t.graphql<RegistryPage>(page, { first: 2 })).body.data.registriesConnection;
    await t.request('POST', '/registries', { body: { name: 'r0-late', endpoint_url: 'https://late.example' } });
    const next = (await t.graphql<RegistryPage>(page, { first: 2, after: first.pageInfo.endCursor })).body.data.registriesConnection;
    expect(next.nodes).toEqual([{ name: 'r2' }, { name: 'r3' }]);
    expect(next.totalCount).toBe(9);
    const before = (await t.graphql<RegistryPage>(page, { last: 2, before: next.edges[0].cursor })).body.data.registriesConnection;
    expect(before.nodes).toEqual([{ name: 'Docker Hub' }, { name: 'r1' }]);
    await t.request('DELETE', `/registries/${(await t.request<{ id: number }[]>('GET', '/registries')).body.at(-1)?.id}`);
  });

  test('a page is at most 100; a cursor not given out and a negative first are 400s', async () => {
    expect((await t.graphql<RegistryPage>(page, { first: 1000 })).body.data.registriesConnection.nodes).toHaveLength(8);
    const bad = await t.graphql<RegistryPage>(page, { first: 2, after: 'bm9wZQ' });
    expect(bad.body.errors?.[0]).toMatchObject({
      message: 'after is not a cursor this list gave out',
      extensions: { code: 'BAD_REQUEST', fields: ['after'] },
    });
    const negative = await t.graphql<RegistryPage>(page, { first: -1 });
    expect(negative.body.errors?.[0]?.extensions).toMatchObject({ code: 'BAD_REQUEST', status: 400 });
  });

  test('every top-level list has a connection', async () => {
    const res = await t.graphql(`{
      registriesConnection { totalCount }
      templatesConnection { totalCount nodes { id images { name } } }
      templateReposConnection { totalCount nodes { id templates { id } } }
      appsConnection { totalCount nodes { id services { id } } }
      deploymentTargetsConnection { totalCount }
      apiTokensConnection { totalCount nodes { name } }
    }`);
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data).toEqual({
      registriesConnection: { totalCount: 8 },
      templatesConnection: { totalCount: 0, nodes: [] },
      templateReposConnection: { totalCount: 0, nodes: [] },
      appsConnection: { totalCount: 0, nodes: [] },
      deploymentTargetsConnection: { totalCount: 0 },
      apiTokensConnection: { totalCount: 0, nodes: [] },
    });
  });

  const create = `mutation($input: CreateRegistryInput!) {
    createRegistry(input: $input) {
      __typename
      ... on Registry { databaseId name }
      ... on Error { code message fields }
      ... on ValidationError { fields }
    }
  }`;

  test('a mutation answers what the caller can fix as a typed result, and REST as before', async () => {
    const invalid = await t.graphql<{ createRegistry: { message: string } }>(create, { input: { name: 'bad', endpointUrl: 'not a url' } });
    expect(invalid.status).toBe(200);
    expect(invalid.body).toEqual({
      data: {
        createRegistry: { __typename: 'ValidationError', code: 'VALIDATION_FAILED', message: expect.any(String), fields: ['endpoint_url'] },
      },
    });
    const rest = await t.request('POST', '/registries', { body: { name: 'bad', endpoint_url: 'not a url' } });
    expect(rest.status).toBe(422);
    expect(rest.body).toEqual({ code: 422, message: invalid.body.data.createRegistry.message, fields: 'endpoint_url' });

    const missing = await t.graphql('mutation { deleteRegistry(input: {id: 999}) { __typename ... on Error { code message fields } } }');
    expect(missing.body).toEqual({
      data: { deleteRegistry: { __typename: 'NotFoundError', code: 'NOT_FOUND', message: 'registry 999 not found', fields: ['id'] } },
    });
    expect((await t.request('DELETE', '/registries/999')).body).toEqual({ code: 404, message: 'registry 999 not found', fields: 'id' });

    const ok = await t.graphql<{ createRegistry: { databaseId: number } }>(create, {
      input: { name: 'good', endpointUrl: 'https://good.example' },
    });
    expect(ok.body.data.createRegistry).toEqual({ __typename: 'Registry', databaseId: expect.any(Number), name: 'good' });
    await t.request('DELETE', `/registries/${ok.body.data.createRegistry.databaseId}`);
  });

  test('a missing scope stays a thrown error (403), not a typed result', async () => {
    const issued = await t.graphql<{ createApiToken: { token: string } }>(
      'mutation { createApiToken(input: {name: "ro", scopes: [read]}) { ... on IssuedApiToken { token } } }',
    );
    const res = await t.graphql(create, { input: { name: 'x', endpointUrl: 'https://x.example' } }, issued.body.data.createApiToken.token);
    expect(res.body.errors?.[0]?.extensions).toEqual({ code: 'FORBIDDEN', status: 403, fields: [] });
    expect(res.body.data).toBeNull();
  });
});
