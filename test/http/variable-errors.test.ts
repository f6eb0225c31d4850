import { startTestApp, type TestApp } from '../helpers/app';

/**
 * REST's 400 for a bad body names the field from where graphql-js's coercion found the problem
 * (its path and the input type), not by reading its message (rest/executor.ts variableProblem).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('a required field missing deep in the body: 400 naming it', async () => {
  // Variables are checked before the operation runs: no app 1 is needed to be told.
  const res = await t.request('POST', '/apps/1/services', { body: { name: 'x', from: 'y', environment: [{ value: 'v' }] } });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ code: 400, message: 'variable is required', fields: 'variable' });
});

test("a required member missing from the body is said in the client's name, not GraphQL's", async () => {
  const res = await t.request('POST', '/registries', { body: { name: 'r' } });
  expect(res.body).toEqual({ code: 400, message: 'endpoint_url is required', fields: 'endpoint_url' });
});

test('a wrong type deep in the body: 400 naming the field in snake_case', async () => {
  const res = await t.request('POST', '/apps/1/services', { body: { name: 'x', from: 'y', volumes: [{ container_path: ['/a'] }] } });
  expect(res.status).toBe(400);
  expect(res.body).toEqual({ code: 400, message: 'String cannot represent a non string value: ["/a"]', fields: 'container_path' });
});
