import { expect } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { createServer, type Server } from 'node:http';
import { connect, createServer as createNetServer, type AddressInfo, type Server as NetServer, type Socket } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { createApp, type App } from '../../src/app';
import { parseConfig } from '../../src/config';
import { freePort } from '../../src/net/free-port';
import { createLogger } from '../../src/logger';
import { ADMIN_TOKEN, type GraphQLBody } from '../helpers/app';

/**
 * A TCP relay in front of the test PostgreSQL: "down" closes every relayed connection and stops
 * listening (the service sees refused and reset connections, as when the server dies); "up"
 * listens again on the same port. The database itself is the real one.
 */
async function startRelay(target: URL) {
  const port = await freePort();
  const sockets = new Set<Socket>();
  let listener: NetServer | undefined;
  const up = () =>
    new Promise<void>((resolve) => {
      listener = createNetServer((client) => {
        const upstream = connect(Number(target.port), target.hostname);
        for (const s of [client, upstream]) {
          sockets.add(s);
          s.on('error', () => undefined);
          s.on('close', () => sockets.delete(s));
        }
        client.pipe(upstream).pipe(client);
      });
      listener.listen(port, '127.0.0.1', () => resolve());
    });
  const down = () =>
    new Promise<void>((resolve) => {
      for (const s of sockets) s.destroy();
      if (listener) listener.close(() => resolve());
      else resolve();
      listener = undefined;
    });
  await up();
  return { port, up, down };
}

/**
 * While PostgreSQL was down every request but /healthz answered `500 Unexpected error.`.
 * The service's connections to the real test PostgreSQL go through a relay that is cut and
 * restored under the running service.
 */
describe('the database goes down and comes back', () => {
  let pg: { up(): Promise<void>; down(): Promise<void> };
  let db: TestDatabase;
  let app: App;
  let server: Server;
  let url: string;
  let dirs: string[] = [];
  let issued: string;

  beforeAll(async () => {
    db = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-down-data-'));
    dirs = [dataDir];
    const target = new URL(db.url);
    const relay = await startRelay(target);
    pg = relay;
    const relayed = new URL(db.url);
    relayed.port = String(relay.port);
    const config = parseConfig({ DATABASE_URL: relayed.toString(), DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'silent' });
    app = await createApp(config, { log: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent'), announce: () => undefined });
    server = createServer(app.handler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const created = await call('POST', '/graphql', ADMIN_TOKEN, {
      query: 'mutation { createApiToken(input: {name: "reader", scopes: [read]}) { ... on IssuedApiToken { token } } }',
    });
    issued = (created.body as GraphQLBody<{ createApiToken: { token: string } }>).data.createApiToken.token;
  });

  afterAll(async () => {
    server?.close();
    await app?.close().catch(() => undefined);
    await pg?.down();
    await db?.drop();
    for (const dir of dirs) await rm(dir, { recursive: true, force: true });
  });

  async function call(method: string, target: string, token: string | null, body?: unknown) {
    const response = await request(`${url}${target}`, {
      method: method as 'GET',
      headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    const text = await response.body.text();
    return { status: response.statusCode, headers: response.headers, body: JSON.parse(text) as unknown };
  }

  test('503 with Retry-After on REST and GraphQL, liveness stays 200, and it recovers by itself', async () => {
    expect((await call('GET', '/registries', issued)).status).toBe(200);
    await pg.down();

    const unavailable = { code: 503, message: 'The database is not reachable; try again shortly.', fields: '' };
    for (const token of [ADMIN_TOKEN, issued]) {
      const rest = await call('GET', '/registries', token);
      expect({ status: rest.status, retryAfter: rest.headers['retry-after'], body: rest.body }).toEqual({
        status: 503,
        retryAfter: '5',
        body: unavailable,
      });
      const write = await call('POST', '/registries', token, { name: 'r', endpoint_url: 'https://r.example' });
      expect(write.status).toBe(503);
    }
    const gql = await call('POST', '/graphql', ADMIN_TOKEN, { query: '{ registries { name } }' });
    expect(gql.status).toBe(503);
    expect(gql.headers['retry-after']).toBe('5');
    // `registries` is costed at its real size (a count) before anything runs: a request error,
    // so no `data` member at all.
    expect(gql.body).toEqual({
      errors: [expect.objectContaining({ message: unavailable.message, extensions: { code: 'UNAVAILABLE', status: 503, fields: [] } })],
    });
    expect((await call('GET', '/readyz', null)).status).toBe(503);
    expect(await call('GET', '/healthz', null)).toEqual(expect.objectContaining({ status: 200, body: { status: 'ok' } }));

    await pg.up();
    for (const until = Date.now() + 15_000; Date.now() < until; await new Promise((r) => setTimeout(r, 200))) {
      if ((await call('GET', '/readyz', null)).status === 200) break;
    }
    expect((await call('GET', '/readyz', null)).body).toEqual({ status: 'ready' });
    expect((await call('GET', '/registries', issued)).status).toBe(200);
  });
});
