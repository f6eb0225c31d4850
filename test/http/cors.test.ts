import { expect } from '@jest/globals';
import { parseConfig } from '../../src/config';
import { startTestApp, type GraphQLBody, type TestApp } from '../helpers/app';

const ALLOWED = 'https://console.example';
const OTHER = 'https://evil.example';

function preflight(t: TestApp, path: string, origin: string) {
  return t.request('OPTIONS', path, {
    token: null,
    headers: { origin, 'access-control-request-method': 'POST', 'access-control-request-headers': 'authorization,content-type' },
  });
}

/** CORS from CORS_ORIGINS, answered before authentication; yoga's CSRF prevention on /graphql. */
describe('CORS and CSRF', () => {
  let t: TestApp;
  let closed: TestApp;

  beforeAll(async () => {
    [t, closed] = await Promise.all([startTestApp({ CORS_ORIGINS: `${ALLOWED}, http://127.0.0.1:3000` }), startTestApp()]);
  });
  afterAll(async () => {
    await t?.close();
    await closed?.close();
  });

  test.each(['/graphql', '/graphql/stream', '/apps', '/deployment_targets/1/deployments'])(
    'a preflight to %s is answered without a token, for a listed origin',
    async (path) => {
      const res = await preflight(t, path, ALLOWED);
      expect(res.status).toBe(204);
      expect(res.headers).toMatchObject({
        'access-control-allow-origin': ALLOWED,
        'access-control-allow-methods': 'GET,HEAD,PUT,PATCH,POST,DELETE',
        'access-control-allow-headers': expect.stringContaining('authorization,content-type'),
        'access-control-max-age': '600',
        vary: expect.stringContaining('Origin'),
      });
      // Bearer tokens, not cookies: a page never needs credentials, so none are allowed.
      expect(res.headers['access-control-allow-credentials']).toBeUndefined();
    },
  );

  test('an origin not listed gets no Access-Control-Allow-Origin, on the preflight or the request', async () => {
    const pre = await preflight(t, '/graphql', OTHER);
    expect(pre.status).toBe(204);
    expect(pre.headers['access-control-allow-origin']).toBeUndefined();
    const res = await t.request('GET', '/apps', { headers: { origin: OTHER } });
    expect(res.status).toBe(200);
    expect(res.headers['access-control-allow-origin']).toBeUndefined();
    expect(res.headers['access-control-allow-credentials']).toBeUndefined();
  });

  test('a listed origin reads answers, errors included, from REST and GraphQL', async () => {
    const rest = await t.request('GET', '/apps', { headers: { origin: ALLOWED } });
    expect(rest.headers['access-control-allow-origin']).toBe(ALLOWED);
    const graphql = await t.request('POST', '/graphql', { headers: { origin: ALLOWED }, body: { query: '{ me { username } }' } });
    expect(graphql.body).toEqual({ data: { me: { username: 'admin' } } });
    expect(graphql.headers['access-control-allow-origin']).toBe(ALLOWED);
    const unauthorized = await t.request('POST', '/graphql', {
      token: null,
      headers: { origin: ALLOWED },
      body: { query: '{ me { username } }' },
    });
    expect(unauthorized.status).toBe(401);
    expect(unauthorized.headers['access-control-allow-origin']).toBe(ALLOWED);
    expect(unauthorized.headers['access-control-expose-headers']).toBe('www-authenticate');
  });

  test('without CORS_ORIGINS no origin is allowed, however it asks', async () => {
    for (const origin of [ALLOWED, 'null', 'http://127.0.0.1:3000']) {
      const pre = await preflight(closed, '/graphql', origin);
      expect(pre.status).toBe(204);
      expect(pre.headers['access-control-allow-origin']).toBeUndefined();
      const res = await closed.request('POST', '/graphql', { headers: { origin }, body: { query: '{ me { username } }' } });
      expect(res.headers['access-control-allow-origin']).toBeUndefined();
    }
  });

  test.each([
    [
      'application/x-www-form-urlencoded',
      'query=mutation%20%7B%20createRegistry(input%3A%20%7Bname%3A%20%22csrf%22%2C%20endpointUrl%3A%20%22https%3A%2F%2Fx.example%22%7D)%20%7B%20__typename%20%7D%20%7D',
    ],
    [
      'text/plain',
      JSON.stringify({ query: 'mutation { createRegistry(input: {name: "csrf", endpointUrl: "https://x.example"}) { __typename } }' }),
    ],
    [
      'multipart/form-data; boundary=x',
      '--x\r\nContent-Disposition: form-data; name="operations"\r\n\r\n{"query":"mutation { createRegistry(input: {name: \\"csrf\\", endpointUrl: \\"https://x.example\\"}) { __typename } }"}\r\n--x--\r\n',
    ],
  ])('a POST a form could send (%s) runs nothing, even with a token', async (contentType, raw) => {
    const res = await t.request<GraphQLBody<unknown>>('POST', '/graphql', { raw, headers: { 'content-type': contentType } });
    expect(res.status).toBe(403);
    expect(res.body.errors).toEqual([expect.objectContaining({ message: 'Required CSRF header(s) not present' })]);
    expect(
      (await t.graphql<{ registries: { name: string }[] }>('{ registries { name } }')).body.data.registries.map((r) => r.name),
    ).not.toContain('csrf');
  });

  test('CORS_ORIGINS must list origins', () => {
    expect(() => parseConfig({ CORS_ORIGINS: 'https://ok.example,*,https://x.example/path' })).toThrow(
      /CORS_ORIGINS: "\*" is not an origin[\s\S]*CORS_ORIGINS: "https:\/\/x.example\/path" is not an origin/,
    );
    expect(parseConfig({ CORS_ORIGINS: ' https://a.example , http://127.0.0.1:8081 ' }).corsOrigins).toEqual([
      'https://a.example',
      'http://127.0.0.1:8081',
    ]);
    expect(parseConfig({}).corsOrigins).toEqual([]);
  });
});
