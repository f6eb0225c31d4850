import { expect } from '@jest/globals';
import { startTestApp, type GraphQLBody, type TestApp } from '../helpers/app';

/** GraphQL-over-HTTP runs queries compiled (src/graphql/compiled.ts); the answers are graphql-js's. */
let t: TestApp;
/** The same service with compilation off (GRAPHQL_JIT=false): what graphql-js answers. */
let plain: TestApp;
beforeAll(async () => {
  [t, plain] = await Promise.all([startTestApp(), startTestApp({ GRAPHQL_JIT: 'false' })]);
});
afterAll(() => Promise.all([t?.close(), plain?.close()]));

const post = (query: string, operationName?: string, variables?: Record<string, unknown>) =>
  t.request<GraphQLBody<unknown>>('POST', '/graphql', { body: { query, operationName, variables } });

test('one document with two operations runs the one asked for, each time', async () => {
  // A cache keyed by the document alone (@envelop/graphql-jit's) answers B with A's result.
  const document = 'query A { me { username } } query B { templateTypes { name } }';
  expect((await post(document, 'A')).body).toEqual({ data: { me: { username: expect.any(String) } } });
  const b = await post(document, 'B');
  expect(b.body.data).toEqual({ templateTypes: expect.arrayContaining([{ name: expect.any(String) }]) });
  expect((await post(document, 'A')).body.data).toEqual({ me: { username: expect.any(String) } });
});

test('errors keep their locations, path and code, exactly as graphql-js reports them; bad variables get graphql-js messages', async () => {
  const cases: [string, Record<string, unknown>][] = [
    ['query One($id: Int!) { template(id: $id) { name } }', { id: 999 }],
    // Aliases, two lines, a list item's error and a forged global id beside answered fields.
    [
      '{\n  me { username }\n  a: template(id: 998) { name } b: app(id: 997) { name }\n  nodes(ids: ["x", "y"]) { id } node(id: "z") { id }\n}',
      {},
    ],
    ['query One($id: Int!) { template(id: $id) { name } }', { id: 'x' }],
  ];
  for (const [query, variables] of cases) {
    const compiled = await post(query, undefined, variables);
    const graphqlJs = await plain.request('POST', '/graphql', { body: { query, variables } });
    expect(compiled.body).toEqual(graphqlJs.body);
    expect(compiled.status).toBe(graphqlJs.status);
    for (const error of compiled.body.errors ?? [])
      expect(error.locations).toEqual([expect.objectContaining({ line: expect.any(Number) })]);
  }
  expect((await post(cases[0][0], undefined, cases[0][1])).body).toEqual({
    data: { template: null },
    errors: [
      {
        message: 'template 999 not found',
        locations: [{ line: 1, column: 24 }],
        path: ['template'],
        extensions: { code: 'NOT_FOUND', status: 404, fields: ['id'] },
      },
    ],
  });
  expect((await post(cases[2][0], undefined, cases[2][1])).body).toEqual({
    errors: [
      {
        message: 'Variable "$id" got invalid value "x"; Int cannot represent non-integer value: "x"',
        locations: [{ line: 1, column: 11 }],
      },
    ],
  });
});
