import { expect } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { promisify } from 'node:util';
import pino from 'pino';
import { request } from 'undici';
import { createApp } from '../../src/app';
import { ConfigError, parseConfig } from '../../src/config';
import { ADMIN_TOKEN, startTestApp } from '../helpers/app';
import { createTestDatabase } from '../helpers/db';
import { startMisbehavingAgent } from '../agent/agent-harness';
import { waitUntil } from '../helpers/processes';

const run = promisify(execFile);

describe('configuration', () => {
  test('every problem is reported at once', () => {
    let error: unknown;
    try {
      parseConfig({ PORT: 'eighty', LOG_LEVEL: 'loud', DATABASE_URL: 'mysql://x', ADMIN_TOKEN: 'short' });
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(ConfigError);
    expect((error as ConfigError).problems.map((p) => p.split(':')[0]).sort()).toEqual([
      'ADMIN_TOKEN',
      'DATABASE_URL',
      'LOG_LEVEL',
      'PORT',
    ]);
  });

  test('defaults', () => {
    const config = parseConfig({});
    expect(config).toMatchObject({
      port: 8080,
      host: '127.0.0.1',
      databaseUrl: undefined,
      logLevel: 'info',
      dataDir: path.resolve('.data'),
    });
  });
});

describe('request logs', () => {
  test('one JSON line per request with method, path, status, duration; no secrets', async () => {
    const lines: Record<string, unknown>[] = [];
    const wake: (() => void)[] = [];
    const sink = new Writable({
      write(chunk, _enc, done) {
        lines.push(
          ...String(chunk)
            .trim()
            .split('\n')
            .map((l) => JSON.parse(l) as Record<string, unknown>),
        );
        wake.splice(0).forEach((resolve) => resolve());
        done();
      },
    });
    /** Waits until the lines logged so far satisfy `done` (a request's line is written on 'close', just after its answer). */
    const logged = async (done: () => boolean): Promise<void> => {
      while (!done()) await new Promise<void>((resolve) => wake.push(resolve));
    };
    const requestLines = (method: string) => lines.filter((l) => l.msg === 'request' && l.method === method);
    const db = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-log-'));
    const app = await createApp(parseConfig({ DATABASE_URL: db.url, DATA_DIR: dataDir, ADMIN_TOKEN }), {
      log: pino({ level: 'info' }, sink),
      announce: () => undefined,
    });
    const server = createServer(app.handler).listen(0, '127.0.0.1');
    await new Promise((resolve) => server.once('listening', resolve));
    const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const res = await request(`${base}/registries?q=secret-query`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ name: 'r', endpoint_url: 'https://r.example', username: 'u', password: 'p4ssw0rd-never-logged' }),
      });
      expect(res.statusCode).toBe(201);
      await res.body.text();
      await logged(() => requestLines('POST').length > 0);
      const entry = lines.find((l) => l.msg === 'request');
      expect(entry).toMatchObject({ method: 'POST', path: '/registries', status: 201, durationMs: expect.any(Number) });
      // A subscription ticket rides in a URL: neither its use nor its refused reuse logs it.
      const issued = await request(`${base}/graphql`, {
        method: 'POST',
        headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
        body: JSON.stringify({ query: 'mutation { createSubscriptionTicket { ... on SubscriptionTicket { ticket } } }' }),
      });
      const { ticket } = ((await issued.body.json()) as { data: { createSubscriptionTicket: { ticket: string } } }).data
        .createSubscriptionTicket;
      const stream = `${base}/graphql?${new URLSearchParams({ query: '{ me { username } }', ticket })}`;
      for (const expected of [200, 401]) {
        const used = await request(stream, { headers: { accept: 'text/event-stream' } });
        expect(used.statusCode).toBe(expected);
        await used.body.text();
      }
      await logged(() => requestLines('GET').length >= 2);
      expect(requestLines('GET').map((l) => [l.path, l.status])).toEqual([
        ['/graphql', 200],
        ['/graphql', 401],
      ]);
      const all = JSON.stringify(lines);
      expect(all).not.toContain(ticket);
      expect(all).not.toContain('p4ssw0rd-never-logged');
      expect(all).not.toContain(ADMIN_TOKEN);
      expect(all).not.toContain('secret-query');
    } finally {
      server.close();
      await app.close();
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});

describe('health', () => {
  test("/readyz is 503 while the agents' connections open after a start (up to a bound), 200 once they are", async () => {
    const held: ServerResponse[] = [];
    const agent = await startMisbehavingAgent((_req, res) => held.push(res));
    const t = await startTestApp();
    try {
      const agents = t.app.deps.agents;
      const opening = agents.open([{ id: 'slow', name: 'slow', authBlob: agent.token }]);
      await waitUntil(() => Promise.resolve(held.length === 1), 'the agent was not asked');
      const res = await t.request('GET', '/readyz', { token: null });
      expect(res.status).toBe(503);
      expect(res.body).toEqual({ code: 503, message: 'Opening the connections to the deployment targets; ready shortly.', fields: '' });
      // Past the bound, a slow agent no longer holds readiness.
      expect([agents.isOpening(60_000), agents.isOpening(0)]).toEqual([true, false]);
      held[0].writeHead(500).end();
      await opening;
      expect(agents.isOpening(60_000)).toBe(false);
      expect((await t.request('GET', '/readyz', { token: null })).status).toBe(200);
    } finally {
      await t.close();
      await agent.close();
    }
  });

  test('/readyz is 503 once the database is gone; /healthz (liveness) stays 200', async () => {
    const t = await startTestApp();
    try {
      expect((await t.request('GET', '/readyz', { token: null })).status).toBe(200);
      await t.app.orm.close(true);
      const res = await t.request('GET', '/readyz', { token: null });
      expect(res.status).toBe(503);
      expect(res.headers['retry-after']).toBe('5');
      expect(res.body).toEqual({ code: 503, message: 'The database is not reachable; try again shortly.', fields: '' });
      expect((await t.request('GET', '/healthz', { token: null })).status).toBe(200);
    } finally {
      await t.close().catch(() => undefined);
    }
  });
});

describe('npm run token', () => {
  test('creates a token that works, lists it, and revokes it', async () => {
    const t = await startTestApp();
    const env = { ...process.env, DATABASE_URL: t.config.databaseUrl!, DATA_DIR: t.dataDir };
    const cli = path.join(__dirname, '..', '..', 'src', 'auth', 'token-cli.ts');
    const tsx = path.join(__dirname, '..', '..', 'node_modules', '.bin', 'tsx');
    try {
      const created = await run(tsx, [cli, 'create', 'ci-bot', '--scope', 'write'], { env });
      const token = created.stdout.trim().split('\n').pop()!;
      expect(token).toMatch(/^plt_/);
      expect((await t.request('POST', '/registries', { token, body: { name: 'x', endpoint_url: 'http://x.example' } })).status).toBe(201);

      const listed = await run(tsx, [cli, 'list'], { env });
      const line = listed.stdout.split('\n').find((l) => l.includes('ci-bot'))!;
      expect(line).toMatch(/^\d+\tci-bot\tci-bot\twrite\tactive$/);

      await run(tsx, [cli, 'revoke', line.split('\t')[0]], { env });
      expect((await t.request('GET', '/registries', { token })).status).toBe(401);
    } finally {
      await t.close();
    }
  });
});

describe('the first start', () => {
  test('issues an admin token once: printed, written 0600 to DATA_DIR/admin-token, and it works', async () => {
    const db = await createTestDatabase();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-first-'));
    const config = parseConfig({ DATABASE_URL: db.url, DATA_DIR: dataDir, LOG_LEVEL: 'silent' });
    const announced: string[] = [];
    try {
      const first = await createApp(config, { announce: (line) => announced.push(line) });
      await first.close();
      expect(announced).toHaveLength(1);
      const { readFileSync, statSync } = await import('node:fs');
      const file = path.join(dataDir, 'admin-token');
      const token = readFileSync(file, 'utf8').trim();
      expect(announced[0]).toContain(token);
      expect(statSync(file).mode & 0o777).toBe(0o600);

      const second = await createApp(config, { announce: (line) => announced.push(line) });
      const server = createServer(second.handler).listen(0, '127.0.0.1');
      await new Promise((resolve) => server.once('listening', resolve));
      const res = await request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/user`, {
        headers: { authorization: `Bearer ${token}` },
      });
      expect(res.statusCode).toBe(200);
      expect(await res.body.json()).toMatchObject({ username: 'admin' });
      server.close();
      await second.close();
      expect(announced).toHaveLength(1);
    } finally {
      await db.drop();
      await rm(dataDir, { recursive: true, force: true });
    }
  });
});
