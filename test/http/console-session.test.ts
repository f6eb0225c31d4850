import { expect } from '@jest/globals';
import { Client } from 'pg';
import { digestToken } from '../../src/auth/token.service';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';

interface SessionBody {
  username: string;
  scopes: string[];
  expiresAt: string;
  csrfToken: string;
}

interface Issued {
  createApiToken: { token: string; apiToken: { databaseId: number } };
}

describe('web console sessions: an API token exchanged for an HttpOnly cookie with CSRF protection', () => {
  let t: TestApp;

  beforeAll(async () => {
    t = await startTestApp({ CONSOLE_SESSION_TTL_SECONDS: '3600' });
  });

  afterAll(async () => {
    await t?.close();
  });

  async function signIn(token: string) {
    const res = await t.request<SessionBody>('POST', '/console/session', { token: null, body: { token } });
    const setCookie = String(res.headers['set-cookie']);
    return { res, setCookie, cookie: setCookie.split(';')[0] };
  }

  async function issue(scopes: string[]) {
    const res = await t.graphql<Issued>(
      `mutation($scopes: [Scope!]!) { createApiToken(input: { name: "console", scopes: $scopes }) {
        ... on IssuedApiToken { token apiToken { databaseId } } } }`,
      { scopes },
    );
    return res.body.data.createApiToken;
  }

  test('signing in sets an HttpOnly, SameSite=Strict cookie and answers who, scopes and the CSRF token; the token is not in it', async () => {
    const { res, setCookie } = await signIn(ADMIN_TOKEN);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      username: 'admin',
      email: null,
      scopes: ['read', 'write', 'deploy', 'admin'],
      expiresAt: expect.any(String),
      csrfToken: expect.stringMatching(/^[\w-]{43}$/),
    });
    // CONSOLE_SESSION_TTL_SECONDS after the sign-in, as the database stored it.
    const [row] = await t.app.orm.em
      .getConnection()
      .execute<{ expires_at: string; ttl: number }[]>(
        'select expires_at, extract(epoch from expires_at - created_at)::float as ttl from console_sessions where digest = ?',
        [digestToken(setCookie.split(';')[0].split('=')[1])],
      );
    expect(row.ttl).toBe(3600);
    expect(res.body.expiresAt).toBe(new Date(row.expires_at).toISOString());
    expect(setCookie).toMatch(/^platform_session=pcs_[\w-]+;/);
    expect(setCookie).toMatch(/; HttpOnly/i);
    expect(setCookie).toMatch(/; SameSite=Strict/i);
    expect(setCookie).toMatch(/; Path=\//);
    expect(res.headers['cache-control']).toBe('no-store');
    expect(res.text).not.toContain(ADMIN_TOKEN);
  });

  test('the cookie authenticates reads; a change needs the CSRF token as well', async () => {
    const { res, cookie } = await signIn(ADMIN_TOKEN);
    const csrf = res.body.csrfToken;
    expect((await t.request('GET', '/apps', { token: null, headers: { cookie } })).status).toBe(200);
    const read = await t.request('POST', '/graphql', {
      token: null,
      headers: { cookie, 'x-csrf-token': csrf },
      body: { query: '{ apps { id } }' },
    });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ data: { apps: [] } });

    const forged = await t.request('POST', '/graphql', { token: null, headers: { cookie }, body: { query: '{ apps { id } }' } });
    expect(forged.status).toBe(403);
    expect(forged.body).toEqual({ code: 403, message: expect.stringContaining('x-csrf-token'), fields: '' });
    const wrong = await t.request('POST', '/template_repos', {
      token: null,
      headers: { cookie, 'x-csrf-token': 'x'.repeat(43) },
      body: { name: 'a/b' },
    });
    expect(wrong.status).toBe(403);
  });

  test('GET /console/session answers the same session again, for a page that reloads', async () => {
    const { res, cookie } = await signIn(ADMIN_TOKEN);
    const again = await t.request<SessionBody>('GET', '/console/session', { token: null, headers: { cookie } });
    expect(again.status).toBe(200);
    expect(again.body).toEqual(res.body);
    const none = await t.request('GET', '/console/session', { token: null });
    expect(none.status).toBe(401);
  });

  test("a session has its token's scopes: a read token's session cannot issue tokens", async () => {
    const issued = await issue(['read']);
    const { res, cookie } = await signIn(issued.token);
    expect(res.body.scopes).toEqual(['read']);
    const denied = await t.request<{ errors: { extensions: { code: string } }[] }>('POST', '/graphql', {
      token: null,
      headers: { cookie, 'x-csrf-token': res.body.csrfToken },
      body: { query: 'mutation { createApiToken(input: { name: "x", scopes: [admin] }) { __typename } }' },
    });
    expect(denied.body.errors.map((e) => e.extensions.code)).toEqual(['FORBIDDEN']);
  });

  test('revoking the token ends its sessions; signing out ends one and clears the cookie', async () => {
    const issued = await issue(['write']);
    const first = await signIn(issued.token);
    const second = await signIn(issued.token);
    const out = await t.request('DELETE', '/console/session', {
      token: null,
      headers: { cookie: second.cookie, 'x-csrf-token': second.res.body.csrfToken },
    });
    expect(out.status).toBe(204);
    expect(String(out.headers['set-cookie'])).toMatch(/^platform_session=;.*Expires=Thu, 01 Jan 1970/);
    expect((await t.request('GET', '/apps', { token: null, headers: { cookie: second.cookie } })).status).toBe(401);
    expect((await t.request('GET', '/apps', { token: null, headers: { cookie: first.cookie } })).status).toBe(200);

    const revoked = await t.graphql(`mutation { revokeApiToken(input: { id: ${issued.apiToken.databaseId} }) { __typename } }`);
    expect(revoked.status).toBe(200);
    const after = await t.request('GET', '/apps', { token: null, headers: { cookie: first.cookie } });
    expect(after.status).toBe(401);
    expect(after.body).toEqual({ code: 401, message: expect.stringContaining('sign in again'), fields: '' });
  });

  test('signing out without the CSRF token is refused: a forged request cannot sign a person out', async () => {
    const { cookie } = await signIn(ADMIN_TOKEN);
    expect((await t.request('DELETE', '/console/session', { token: null, headers: { cookie } })).status).toBe(403);
    expect((await t.request('GET', '/apps', { token: null, headers: { cookie } })).status).toBe(200);
  });

  test('bad sign-ins get clear errors and store nothing', async () => {
    const count = async () => {
      const client = new Client({ connectionString: t.config.databaseUrl });
      await client.connect();
      try {
        return Number((await client.query<{ count: string }>('select count(*) from console_sessions')).rows[0].count);
      } finally {
        await client.end();
      }
    };
    const before = await count();
    const wrong = await signIn('plt_not-a-token');
    expect(wrong.res.status).toBe(401);
    expect(wrong.res.headers['set-cookie']).toBeUndefined();
    const missing = await t.request('POST', '/console/session', { token: null, body: {} });
    expect(missing.status).toBe(422);
    expect(missing.body).toEqual({ code: 422, message: expect.stringContaining('token'), fields: 'token' });
    expect((await t.request('PUT', '/console/session', { token: null, body: {} })).status).toBe(405);
    expect(await count()).toBe(before);
  });

  test('only a digest of the cookie is stored', async () => {
    const { cookie } = await signIn(ADMIN_TOKEN);
    const secret = cookie.split('=')[1];
    const client = new Client({ connectionString: t.config.databaseUrl });
    await client.connect();
    try {
      const rows = (await client.query<{ digest: string }>('select digest from console_sessions')).rows;
      expect(rows.length).toBeGreaterThan(0);
      expect(rows.map((r) => r.digest)).not.toContain(secret);
    } finally {
      await client.end();
    }
  });

  test('a session ends at its expiry', async () => {
    const { cookie } = await signIn(ADMIN_TOKEN);
    const digest = digestToken(cookie.split('=')[1]);
    // The session's clock is the database's: move its expiry instead of waiting for it.
    const expireIn = (interval: string) =>
      t.app.orm.em
        .getConnection()
        .execute(`update console_sessions set expires_at = now() + interval '${interval}' where digest = ?`, [digest]);
    expect((await t.request('GET', '/apps', { token: null, headers: { cookie } })).status).toBe(200);
    await expireIn('1 minute');
    expect((await t.request('GET', '/apps', { token: null, headers: { cookie } })).status).toBe(200);
    await expireIn('-1 second');
    expect((await t.request('GET', '/apps', { token: null, headers: { cookie } })).status).toBe(401);
  });
});
