import { expect } from '@jest/globals';
import { startTestApp, type GraphQLBody, type TestApp } from '../helpers/app';

/** GraphQL-over-HTTP runs queries compiled (src/graphql/compiled.ts); the answers are graphql-js's. */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

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

test('errors keep their path and code; bad variables get graphql-js messages', async () => {
  expect((await post('query One($id: Int!) { template(id: $id) { name } }', undefined, { id: 999 })).body).toEqual({
    data: { template: null },
    // graphql-jit does not report locations for a resolver's error (graphql-js does).
    errors: [{ message: 'template 999 not found', path: ['template'], extensions: { code: 'NOT_FOUND', status: 404, fields: ['id'] } }],
  });
  expect((await post('query One($id: Int!) { template(id: $id) { name } }', undefined, { id: 'x' })).body).toEqual({
    errors: [
      {
        message: 'Variable "$id" got invalid value "x"; Int cannot represent non-integer value: "x"',
        locations: [{ line: 1, column: 11 }],
      },
    ],
  });
});
