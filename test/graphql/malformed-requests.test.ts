import { expect } from '@jest/globals';
import { request } from 'undici';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';

const auth = { authorization: `Bearer ${ADMIN_TOKEN}` };

async function send(t: TestApp, path: string, init: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  const res = await request(`${t.url}${path}`, { method: 'GET', ...init, headers: { ...auth, ...init.headers } });
  const text = await res.body.text();
  return { status: res.statusCode, text, body: JSON.parse(text) as unknown };
}

/** Whatever NODE_ENV the service runs with (`npm start` leaves it unset), no error carries internals. */
describe.each([['unset'], ['development'], ['production']])('malformed GraphQL requests, NODE_ENV %s', (nodeEnv) => {
  let t: TestApp;
  const saved = process.env.NODE_ENV;
  beforeAll(async () => {
    if (nodeEnv === 'unset') delete process.env.NODE_ENV;
    else process.env.NODE_ENV = nodeEnv;
    t = await startTestApp();
  });
  afterAll(async () => {
    process.env.NODE_ENV = saved;
    await t?.close();
  });

  test('a body that is not JSON is a 400 without the parser error or an excerpt of the body', async () => {
    const res = await send(t, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/json', accept: 'application/json' },
      body: '{"query": "{ me { username } }", secret-excerpt',
    });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ errors: [{ message: 'POST body sent invalid JSON.', extensions: { code: 'BAD_REQUEST' } }] });
    expect(res.text).not.toMatch(/originalError|SyntaxError|secret-excerpt|stack/);
  });

  test.each([
    ['variables', '/graphql?query={__typename}&variables={bad'],
    ['extensions', '/graphql?query={__typename}&extensions={bad'],
  ])('a GET whose %s is not JSON is a 400 naming it', async (name, path) => {
    const res = await send(t, path);
    expect(res).toMatchObject({ status: 400, body: { code: 400, message: `the ${name} parameter is not valid JSON`, fields: name } });
  });

  test('a form-encoded POST whose variables are not JSON is a 400 naming them', async () => {
    const res = await send(t, '/graphql', {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded', 'x-graphql-yoga-csrf': '1' },
      body: 'query=%7B__typename%7D&variables=%7Bbad',
    });
    expect(res).toMatchObject({
      status: 400,
      body: { code: 400, message: 'the variables parameter is not valid JSON', fields: 'variables' },
    });
  });

  test('well-formed JSON parameters still run', async () => {
    const res = await send(
      t,
      `/graphql?query=${encodeURIComponent('query($b: Boolean!) { __typename @include(if: $b) }')}&variables=${encodeURIComponent('{"b":true}')}`,
    );
    expect(res).toEqual({ status: 200, text: expect.any(String), body: { data: { __typename: 'Query' } } });
  });
});
