import { expect } from '@jest/globals';
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import { Client } from 'pg';
import { createClient } from 'graphql-ws';
import { request as undiciRequest } from 'undici';
import WebSocket from 'ws';
import { verifyAuditChain } from '../../src/audit/audit-chain';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';

const run = promisify(execFile);
const ROOT = path.resolve(__dirname, '../..');

interface AuditBody {
  id: number;
  at: string;
  actor_kind: string;
  actor_id: string | null;
  actor_name: string | null;
  door: string;
  operation: string;
  object_type: string | null;
  object_id: string | null;
  input: Record<string, unknown>;
  outcome: string;
  client_address: string | null;
  user_agent: string | null;
  prev_hash: string;
  hash: string;
}

const record = (fields: Record<string, unknown>) => ({
  id: expect.any(Number),
  at: expect.stringMatching(/Z$/),
  actor_id: null,
  object_type: null,
  object_id: null,
  input: {},
  client_address: '127.0.0.1',
  user_agent: 'audit-test',
  prev_hash: expect.stringMatching(/^[0-9a-f]{64}$/),
  hash: expect.stringMatching(/^[0-9a-f]{64}$/),
  ...fields,
});

describe('the audit log', () => {
  let t: TestApp;
  let issued: { token: string; id: number };

  beforeAll(async () => {
    t = await startTestApp({ LEGACY_UI_PORT: '0', LEGACY_UI_SCOPE: 'write', TRUSTED_PROXIES: '127.0.0.1' });
  });
  afterAll(() => t.close());

  const headers = { 'user-agent': 'audit-test' };
  const audit = async (query = '') => {
    const res = await t.request<{ items: AuditBody[]; next: number | null }>('GET', `/audit_events${query}`, { headers });
    expect(res.status).toBe(200);
    return res.body.items;
  };

  test('records a change through each door, with who, what, from where and the outcome; reads are not recorded', async () => {
    // An issued token (its first use is a record of its own), used over REST.
    const created = await t.graphql<{ createApiToken: { token: string; databaseId: number } }>(
      'mutation { createApiToken(input: { name: "ci bot", scopes: [write] }) { ... on IssuedApiToken { token databaseId } } }',
    );
    issued = { token: created.body.data.createApiToken.token, id: created.body.data.createApiToken.databaseId };

    // REST on the main listener, through a trusted proxy (the forwarded address is the client's).
    const registry = await t.request<{ id: number }>('POST', '/registries', {
      token: issued.token,
      headers: { ...headers, 'x-forwarded-for': '203.0.113.9' },
      body: { name: 'r1', endpoint_url: 'https://r1.example', password: 'hunter2', username: 'me' },
    });
    expect(registry.status).toBe(201);
    // A read: not recorded.
    expect((await t.request('GET', '/registries', { token: issued.token, headers })).status).toBe(200);
    // GraphQL, with a typed error result (a duplicate name) as the outcome.
    await t.request('POST', '/graphql', {
      headers,
      body: { query: 'mutation { createRegistry(input: { name: "r2", endpointUrl: "ftp://other.example" }) { __typename } }' },
    });
    // A refused scope: the token may write but not administer.
    await t.request('POST', '/graphql', {
      token: issued.token,
      headers,
      body: { query: 'mutation { createApiToken(input: { name: "x", scopes: [read] }) { __typename } }' },
    });
    // The legacy UI listener.
    const legacy = await undiciRequest(`${t.legacyUrl}/registries`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'legacy-reg', endpoint_url: 'https://legacy.example' }),
    });
    expect(legacy.statusCode).toBe(201);
    await legacy.body.dump();

    const items = await audit();
    expect(items.reverse()).toEqual([
      record({
        actor_kind: 'admin-token',
        actor_name: 'admin',
        door: 'graphql',
        operation: 'createApiToken',
        object_type: 'ApiToken',
        object_id: String(issued.id),
        input: { name: 'ci bot', scopes: ['write'] },
        outcome: 'ok',
        user_agent: null,
      }),
      record({
        actor_kind: 'token',
        actor_id: String(issued.id),
        actor_name: 'ci bot',
        door: 'rest',
        operation: 'firstTokenUse',
        object_type: 'ApiToken',
        object_id: String(issued.id),
        outcome: 'ok',
        client_address: '203.0.113.9',
      }),
      record({
        actor_kind: 'token',
        actor_id: String(issued.id),
        actor_name: 'ci bot',
        door: 'rest',
        operation: 'createRegistry',
        object_type: 'Registry',
        object_id: String(registry.body.id),
        input: { name: 'r1', endpointUrl: 'https://r1.example', password: '***', username: 'me' },
        outcome: 'ok',
        client_address: '203.0.113.9',
      }),
      record({
        actor_kind: 'admin-token',
        actor_name: 'admin',
        door: 'graphql',
        operation: 'createRegistry',
        object_type: 'Registry',
        input: { name: 'r2', endpointUrl: 'ftp://other.example' },
        outcome: 'VALIDATION_FAILED',
      }),
      record({
        actor_kind: 'token',
        actor_id: String(issued.id),
        actor_name: 'ci bot',
        door: 'graphql',
        operation: 'createApiToken',
        object_type: 'ApiToken',
        input: { name: 'x', scopes: ['read'] },
        outcome: 'FORBIDDEN',
      }),
      record({
        actor_kind: 'legacy-ui',
        actor_name: 'legacy-ui',
        door: 'legacy-ui',
        operation: 'createRegistry',
        object_type: 'Registry',
        object_id: expect.any(String),
        input: { name: 'legacy-reg', endpointUrl: 'https://legacy.example' },
        outcome: 'ok',
      }),
    ]);
    // Each record carries the hash of the one before.
    for (let i = 1; i < items.length; i++) expect(items[i].prev_hash).toBe(items[i - 1].hash);
  });

  test('a forwarded address from a peer that is not a trusted proxy is ignored', async () => {
    const other = await startTestApp({ TRUSTED_PROXIES: '10.0.0.1' });
    try {
      await other.request('POST', '/registries', {
        headers: { 'x-forwarded-for': '203.0.113.9' },
        body: { name: 'r', endpoint_url: 'https://r.example' },
      });
      const res = await other.request<{ items: AuditBody[] }>('GET', '/audit_events?operation=createRegistry');
      expect(res.body.items.map((e) => e.client_address)).toEqual(['127.0.0.1']);
    } finally {
      await other.close();
    }
  });

  test('a mutation over WebSocket (graphql-ws) is recorded with its door', async () => {
    const client = createClient({
      url: `${t.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
    });
    try {
      await new Promise<void>((resolve, reject) =>
        client.subscribe(
          { query: 'mutation { createRegistry(input: { name: "over-ws", endpointUrl: "https://ws.example" }) { __typename } }' },
          { next: () => undefined, error: reject, complete: resolve },
        ),
      );
    } finally {
      await client.dispose();
    }
    const [record] = await audit('?operation=createRegistry&limit=1');
    expect([record.door, record.actor_kind, record.input, record.outcome]).toEqual([
      'graphql-ws',
      'admin-token',
      { name: 'over-ws', endpointUrl: 'https://ws.example' },
      'ok',
    ]);
  });

  test('the GraphQL connection pages the same records, filtered', async () => {
    const res = await t.graphql<{ auditEventsConnection: { totalCount: number; nodes: { operation: string; actorName: string }[] } }>(
      '{ auditEventsConnection(last: 2, filter: { operation: "createRegistry" }) { totalCount nodes { operation actorName } } }',
    );
    expect(res.body).toEqual({
      data: {
        auditEventsConnection: {
          totalCount: 4,
          nodes: [
            { operation: 'createRegistry', actorName: 'legacy-ui' },
            { operation: 'createRegistry', actorName: 'admin' },
          ],
        },
      },
    });
  });

  test('console sign-in and sign-out are recorded', async () => {
    const signIn = await undiciRequest(`${t.url}/console/session`, {
      method: 'POST',
      headers: { ...headers, 'content-type': 'application/json' },
      body: JSON.stringify({ token: issued.token }),
    });
    expect(signIn.statusCode).toBe(200);
    const session = (await signIn.body.json()) as { csrfToken: string };
    const cookie = String(signIn.headers['set-cookie']).split(';')[0];
    const out = await undiciRequest(`${t.url}/console/session`, {
      method: 'DELETE',
      headers: { ...headers, cookie, 'x-csrf-token': session.csrfToken },
    });
    expect(out.statusCode).toBe(204);
    const items = await audit('?object_type=ConsoleSession');
    expect(items.map((e) => [e.operation, e.door, e.actor_name, e.outcome])).toEqual([
      ['signOut', 'console', 'ci bot', 'ok'],
      ['signIn', 'console', 'ci bot', 'ok'],
    ]);
  });

  test('filters by who, object, operation and time, pages, and exports JSON lines; admins only', async () => {
    const mine = await audit(`?actor=${issued.id}&operation=createRegistry`);
    expect(mine.map((e) => [e.actor_name, e.outcome])).toEqual([['ci bot', 'ok']]);
    expect(await audit('?since=2999-01-01T00:00:00.000Z')).toEqual([]);
    const first = await t.request<{ items: AuditBody[]; next: number }>('GET', '/audit_events?limit=2');
    expect(first.body.items).toHaveLength(2);
    const second = await t.request<{ items: AuditBody[] }>('GET', `/audit_events?limit=2&before=${first.body.next}`);
    expect(second.body.items[0].id).toBeLessThan(first.body.items[1].id);

    const exported = await t.request('GET', '/audit_events/export?operation=createRegistry');
    expect(exported.status).toBe(200);
    expect(exported.headers['content-type']).toBe('application/x-ndjson; charset=utf-8');
    const lines = exported.text
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as AuditBody);
    expect(lines.map((l) => [l.operation, l.outcome, l.actor_kind, l.door])).toEqual([
      ['createRegistry', 'ok', 'token', 'rest'],
      ['createRegistry', 'VALIDATION_FAILED', 'admin-token', 'graphql'],
      ['createRegistry', 'ok', 'legacy-ui', 'legacy-ui'],
      ['createRegistry', 'ok', 'admin-token', 'graphql-ws'],
    ]);

    expect(await t.request('GET', '/audit_events', { token: issued.token })).toMatchObject({
      status: 403,
      body: { code: 403, message: 'this token may not use Query.auditEvents', fields: '' },
    });
    expect(await t.request('GET', '/audit_events?since=yesterday')).toMatchObject({ status: 400, body: { code: 400, fields: 'since' } });
  });

  test('is append-only for the service, and audit:verify finds an edited or a removed record', async () => {
    const client = new Client({ connectionString: t.config.databaseUrl });
    await client.connect();
    try {
      await expect(client.query(`update audit_events set outcome = 'ok'`)).rejects.toThrow(/append-only/);
      await expect(client.query(`delete from audit_events`)).rejects.toThrow(/append-only/);
      await expect(client.query(`truncate audit_events`)).rejects.toThrow(/append-only/);

      const verify = () =>
        run('npx', ['tsx', 'src/audit/audit-verify.ts'], { cwd: ROOT, env: { ...process.env, DATABASE_URL: t.config.databaseUrl } });
      const intact = await verify();
      expect(intact.stdout).toMatch(/^audit log: \d+ records, chain intact\n$/);

      // A database owner tampers, with the guard triggers off.
      const ids = (await client.query<{ id: number }>('select id from audit_events order by id')).rows.map((r) => r.id);
      await client.query('set session_replication_role = replica');
      await client.query(`update audit_events set outcome = 'tampered' where id = $1`, [ids[3]]);
      await client.query('delete from audit_events where id = $1', [ids[5]]);
      await client.query('set session_replication_role = origin');
      expect(await verifyAuditChain(t.config.databaseUrl!)).toEqual({
        rows: ids.length - 1,
        problems: [
          { id: ids[3], kind: 'edited', message: `record ${ids[3]} was changed after it was written` },
          {
            id: ids[6],
            kind: 'broken',
            message: `record ${ids[6]} follows a record that is not there (removed, or the chain was rewritten)`,
          },
        ],
      });
      const failed = await verify().then(
        () => null,
        (error: { code: number; stdout: string }) => error,
      );
      expect(failed?.code).toBe(1);
      expect(failed?.stdout).toContain(`edited: record ${ids[3]} was changed after it was written`);
    } finally {
      await client.end();
    }
  });

  test("retention prunes through the database's own path and the chain still verifies", async () => {
    const other = await startTestApp();
    try {
      await other.request('POST', '/registries', { body: { name: 'a', endpoint_url: 'https://a.example' } });
      await other.request('POST', '/registries', { body: { name: 'b', endpoint_url: 'https://b.example' } });
      const client = new Client({ connectionString: other.config.databaseUrl });
      await client.connect();
      try {
        // Records "older than" a day from now: all of them.
        const removed = await client.query<{ n: number }>(`select audit_prune(now() + interval '1 day') as n`);
        expect(removed.rows[0].n).toBe(2);
        await other.request('POST', '/registries', { body: { name: 'c', endpoint_url: 'https://c.example' } });
        expect(await verifyAuditChain(other.config.databaseUrl!)).toEqual({ rows: 1, problems: [] });
      } finally {
        await client.end();
      }
    } finally {
      await other.close();
    }
  });
});

void ADMIN_TOKEN;
