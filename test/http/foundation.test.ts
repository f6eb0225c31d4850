import { expect } from '@jest/globals';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('health and auth', () => {
  test('GET /healthz needs no token and answers 200 once the database is reachable', async () => {
    const res = await t.request('GET', '/healthz', { token: null });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ status: 'ok' });
  });

  test.each(['/registries', '/templates', '/search?q=x', '/platform', '/user'])(
    'GET %s without a token is 401 with the error body',
    async (path) => {
      const res = await t.request('GET', path, { token: null });
      expect(res.status).toBe(401);
      expect(res.body).toEqual({ code: 401, message: expect.stringContaining('bearer token'), fields: '' });
      expect(res.headers['www-authenticate']).toBe('Bearer realm="platform"');
    },
  );

  test('a wrong token is 401', async () => {
    const res = await t.request('GET', '/registries', { token: 'plt_not-a-real-token' });
    expect(res.status).toBe(401);
    expect(res.body).toEqual({ code: 401, message: 'the bearer token is not valid', fields: '' });
  });

  test('POST /graphql without a token is 401', async () => {
    const res = await t.graphql('{ registries { id } }', {}, null);
    expect(res.status).toBe(401);
  });

  test('a read token cannot write: 403 on REST and in GraphQL', async () => {
    const issued = await t.graphql<{ createApiToken: { id: number; token: string } }>(
      'mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { ... on IssuedApiToken { id: databaseId token scopes } } }',
      { input: { name: 'reader', scopes: ['read'] } },
    );
    expect(issued.body.data.createApiToken).toEqual({ id: expect.any(Number), token: expect.stringMatching(/^plt_/), scopes: ['read'] });
    const token = issued.body.data.createApiToken.token;

    expect((await t.request('GET', '/registries', { token })).status).toBe(200);
    const denied = await t.request('POST', '/registries', { token, body: { name: 'r', endpoint_url: 'http://r.example' } });
    expect(denied.status).toBe(403);
    expect(denied.body).toEqual({ code: 403, message: 'this token may not use Mutation.createRegistry', fields: '' });

    const gql = await t.graphql(
      'mutation { createRegistry(input: {name: "r", endpointUrl: "http://r"}) { ... on Registry { id } } }',
      {},
      token,
    );
    expect(gql.body.errors?.[0]?.extensions).toEqual({ code: 'FORBIDDEN', status: 403, fields: [] });
  });

  test('a revoked token stops working', async () => {
    const issued = await t.graphql<{ createApiToken: { id: number; token: string } }>(
      'mutation { createApiToken(input: {name: "temp", scopes: [write]}) { ... on IssuedApiToken { id: databaseId token } } }',
    );
    const { id, token } = issued.body.data.createApiToken;
    expect((await t.request('GET', '/templates', { token })).status).toBe(200);
    const revoked = await t.graphql<{ revokeApiToken: unknown }>(
      `mutation { revokeApiToken(input: {id: ${id}}) { ... on ApiToken { id: databaseId revokedAt } } }`,
    );
    expect(revoked.body.data.revokeApiToken).toEqual({ id, revokedAt: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/) });
    expect((await t.request('GET', '/templates', { token })).status).toBe(401);
  });

  test('tokens are stored hashed, never in the clear', async () => {
    const issued = await t.graphql<{ createApiToken: { id: number; token: string } }>(
      'mutation { createApiToken(input: {name: "hashed", scopes: [read]}) { ... on IssuedApiToken { token } } }',
    );
    const token = issued.body.data.createApiToken.token;
    const rows: { digest: string }[] = await t.app.orm.em.getConnection().execute('select digest from api_tokens');
    expect(rows.some((r: { digest: string }) => r.digest.includes(token))).toBe(false);
    expect(rows.every((r: { digest: string }) => /^[0-9a-f]{64}$/.test(r.digest))).toBe(true);
  });

  test.each(['read', 'write', 'deploy'])('a %s token may not list tokens; an admin token may', async (scope) => {
    const name = `lister-${scope}`;
    const issued = await t.graphql<{ createApiToken: { token: string } }>(
      'mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { ... on IssuedApiToken { token } } }',
      { input: { name, scopes: [scope] } },
    );
    const token = issued.body.data.createApiToken.token;
    // The token works for what its scope allows, so the refusal below is about listing tokens.
    expect((await t.request('GET', '/templates', { token })).status).toBe(200);

    const denied = await t.graphql('{ apiTokens { name scopes } }', {}, token);
    expect({ status: denied.status, body: denied.body }).toEqual({
      status: 403,
      body: {
        data: null,
        errors: [
          {
            message: 'this token may not use Query.apiTokens',
            locations: [{ line: 1, column: 3 }],
            path: ['apiTokens'],
            extensions: { code: 'FORBIDDEN', status: 403, fields: [] },
          },
        ],
      },
    });

    const listed = await t.graphql<{ apiTokens: { name: string; scopes: string[] }[] }>('{ apiTokens { name scopes } }', {}, ADMIN_TOKEN);
    expect(listed.status).toBe(200);
    expect(listed.body.data.apiTokens).toEqual(expect.arrayContaining([{ name, scopes: [scope] }]));
  });
});

describe('errors', () => {
  test('unknown path: 404 with the error body', async () => {
    const res = await t.request('GET', '/nope');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ code: 404, message: 'no such path: /nope', fields: '' });
  });

  test('wrong method on a known path: 405 with the methods it takes', async () => {
    const res = await t.request('PUT', '/registries');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.body).toEqual({ code: 405, message: 'PUT is not allowed on /registries', fields: '' });
  });

  test('malformed JSON: 400', async () => {
    const res = await t.request('POST', '/registries', { raw: '{"name": "secret-excerpt" x' });
    expect(res.status).toBe(400);
    // Where the parser stopped, never an excerpt of what was sent.
    expect(res.body).toEqual({ code: 400, message: 'malformed JSON at position 26', fields: '' });
  });

  test('a body over 1 MiB: 413', async () => {
    const res = await t.request('POST', '/registries', { raw: JSON.stringify({ name: 'x'.repeat(1024 * 1024 + 10) }) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 413, message: 'the body is larger than 1048576 bytes', fields: '' });
  });

  test('a missing required field: 400 naming it', async () => {
    const res = await t.request('POST', '/registries', { body: { endpoint_url: 'http://r.example' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: expect.stringContaining('name'), fields: 'name' });
  });

  test('a wrong type: 400 naming the field', async () => {
    const res = await t.request('POST', '/registries', { body: { name: 'r', endpoint_url: 'http://r.example', enabled: 'yes' } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: expect.stringContaining('Boolean'), fields: 'enabled' });
  });

  test('a non-integer id in the path: 400', async () => {
    const res = await t.request('GET', '/registries/abc');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: 'id must be an integer', fields: 'id' });
  });
});

describe('GraphQL', () => {
  // server.ts bounds every body before yoga sees it, and yoga's own limit is off (it cost a
  // stream pipeline per request): the bound must still hold for /graphql.
  test('POST /graphql with a body over 1 MiB: 413 with the error body, before yoga', async () => {
    const res = await t.request('POST', '/graphql', { raw: JSON.stringify({ query: `{ me { username } } #${'x'.repeat(1024 * 1024)}` }) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 413, message: 'the body is larger than 1048576 bytes', fields: '' });
  });

  // One document is now written with one end() of yoga's string (not read back through a stream):
  // still whole, with yoga's Content-Length.
  test('a GraphQL answer is written whole, with its Content-Length', async () => {
    const res = await t.graphql('{ me { username } }');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { me: { username: 'admin' } } });
    expect(res.headers['transfer-encoding']).toBeUndefined();
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(res.text));
  });

  test('GraphiQL is served to a browser without a token', async () => {
    const res = await t.request('GET', '/graphql', { token: null, headers: { accept: 'text/html' } });
    expect(res.status).toBe(200);
    expect(res.text).toContain('<title>platform GraphQL</title>');
  });

  test('a domain error carries code, http status and fields in extensions; the lookup alone is null', async () => {
    const res = await t.graphql('{ registry(id: 999) { id } }');
    expect(res.body).toEqual({
      data: { registry: null },
      errors: [
        {
          message: 'registry 999 not found',
          locations: [{ line: 1, column: 3 }],
          path: ['registry'],
          extensions: { code: 'NOT_FOUND', status: 404, fields: ['id'] },
        },
      ],
    });
    // The response carries data: a 200 (the status of the error is in its extensions).
    expect(res.status).toBe(200);
  });
});
