import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import os from 'node:os';
import path from 'node:path';
import type { Client } from 'graphql-ws';
import { Client as PgClient } from 'pg';
import { Agent, request } from 'undici';
import { freePort } from '../../src/net/free-port';
import { startAgent, startFakeAdapter, type RecordedCall, type RunningAgent } from '../agent/agent-harness';
import { sseSubscribe, wsClient, wsSubscribe, type ResultStream } from '../events/clients';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { describeDocker, removeByLabel, testDockerClient, testDockerHost, TEST_IMAGE } from '../helpers/docker';
import { commitFiles, makeGitRepo, pmx } from '../helpers/git';
import { describeHaproxy, startHaproxy, type Balancer } from '../helpers/haproxy';
import { startServiceProcess, waitUntil, type ServiceProcess } from '../helpers/processes';

const ADMIN = 'balancer-test-admin-token-0123456789';

const DEPLOYMENT_STATUS = `subscription Status($targetId: Int!, $id: Int!) {
  deploymentStatusChanged(targetId: $targetId, id: $id) { targetId deploymentId status { services { actualState } } error }
}`;

interface Replica {
  name: string;
  port: number;
  dataDir: string;
  process: ServiceProcess;
}

interface Answer<T> {
  status: number;
  body: T;
  servedBy: string | undefined;
  headers: Record<string, string | string[] | undefined>;
}

/**
 * Two replicas of the service (each its own process, data dir and port) on one PostgreSQL, behind
 * Debian's haproxy, and every client talking to the balancer only: they behave as one service.
 */
describeHaproxy('two replicas behind a load balancer', () => {
  let db: TestDatabase;
  let balancer: Balancer;
  const replicas: Replica[] = [];
  const env: Record<string, string> = {};
  const dirs: string[] = [];
  const dispatcher = new Agent({ connections: 16 });

  async function startReplica(name: string, port: number, dataDir: string): Promise<Replica> {
    const process = await startServiceProcess({ ...env, DATA_DIR: dataDir, LOG_LEVEL: 'info' }, { port });
    return { name, port, dataDir, process };
  }

  beforeAll(async () => {
    db = await createTestDatabase('balancer');
    Object.assign(env, {
      DATABASE_URL: db.url,
      ADMIN_TOKEN: ADMIN,
      // Equal on every replica (README "Replicas"): credentials sealed by one are opened by the other.
      SECRET_KEY: randomBytes(32).toString('hex'),
      TEMPLATE_REPO_ROOTS: os.tmpdir(),
      DOCKER_HOST: testDockerHost(),
      APP_START_RESUME_AFTER_SECONDS: '2',
    });
    // One after the other: the first applies the migrations.
    for (const name of ['r1', 'r2']) {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), `replica-${name}-`));
      dirs.push(dataDir);
      replicas.push(await startReplica(name, await freePort(), dataDir));
    }
    balancer = await startHaproxy(replicas.map((r) => `127.0.0.1:${r.port}`));
  }, 240_000);

  afterAll(async () => {
    await balancer?.close();
    for (const replica of replicas) await replica.process.stop();
    await dispatcher.close();
    await db?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  }, 120_000);

  async function call<T = unknown>(
    method: string,
    pathname: string,
    options: { body?: unknown; headers?: Record<string, string>; token?: string | null } = {},
  ): Promise<Answer<T>> {
    const token = options.token === undefined ? ADMIN : options.token;
    const res = await request(`${balancer.url}${pathname}`, {
      method: method as 'GET',
      dispatcher,
      headers: {
        ...(token ? { authorization: `Bearer ${token}` } : {}),
        ...(options.body === undefined ? {} : { 'content-type': 'application/json' }),
        ...options.headers,
      },
      body: options.body === undefined ? undefined : JSON.stringify(options.body),
    });
    const text = await res.body.text();
    let body: unknown = text;
    try {
      body = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON (haproxy's own error pages): kept as text
    }
    return { status: res.statusCode, body: body as T, servedBy: res.headers['x-served-by'] as string | undefined, headers: res.headers };
  }

  /** Both replicas up in the balancer's eyes: requests in a row reach each of them. */
  async function bothServing(): Promise<void> {
    await waitUntil(
      async () => {
        const seen = new Set<string | undefined>();
        for (let i = 0; i < 4; i++) seen.add((await call('GET', '/healthz')).servedBy);
        return seen.has('r1') && seen.has('r2');
      },
      'both replicas serving behind the balancer',
      60_000,
      balancer.output,
    );
  }

  test('requests go round both replicas, and each answers as the other would', async () => {
    await bothServing();
    const answers = await Promise.all([0, 1, 2, 3].map(() => call<unknown[]>('GET', '/registries')));
    expect(new Set(answers.map((a) => a.servedBy))).toEqual(new Set(['r1', 'r2']));
    expect(answers.map((a) => ({ status: a.status, body: a.body }))).toEqual(answers.map(() => ({ status: 200, body: answers[0].body })));
  });

  test('a console session made on one replica works on both; signing out on one ends it on both', async () => {
    const signedIn = await call<{ csrfToken: string }>('POST', '/console/session', { token: null, body: { token: ADMIN } });
    expect(signedIn.status).toBe(200);
    const cookie = String(signedIn.headers['set-cookie']).split(';')[0];
    const headers = { cookie, 'x-csrf-token': signedIn.body.csrfToken };
    const asConsole = () =>
      call<{ data: { me: { username: string } } }>('POST', '/graphql', { token: null, headers, body: { query: '{ me { username } }' } });
    const answers = await Promise.all([0, 1, 2, 3].map(() => asConsole()));
    expect(new Set(answers.map((a) => a.servedBy))).toEqual(new Set(['r1', 'r2']));
    expect(answers.map((a) => a.body)).toEqual(answers.map(() => ({ data: { me: { username: 'admin' } } })));

    const out = await call('DELETE', '/console/session', { token: null, headers });
    expect(out.status).toBe(204);
    const after = await Promise.all([0, 1, 2, 3].map(() => asConsole()));
    expect(new Set(after.map((a) => a.servedBy))).toEqual(new Set(['r1', 'r2']));
    expect(after.map((a) => a.status)).toEqual([401, 401, 401, 401]);
  });

  test('two reloads of one template repo at once, on both replicas, load it once', async () => {
    const repoDir = makeGitRepo({ 'a.pmx': pmx('Alpha') });
    dirs.push(repoDir);
    const repo = await call<{ id: number }>('POST', '/template_repos', { body: { name: repoDir } });
    expect(repo.status).toBe(200);
    const before = await call<{ id: number; name: string; source: string }[]>('GET', '/templates');
    const alpha = before.body.find((t) => t.source === repoDir)!;
    commitFiles(repoDir, { 'b.pmx': pmx('Beta') });
    const reloads = await Promise.all([0, 1].map(() => call<{ template_count: number }>('POST', `/template_repos/${repo.body.id}`)));
    expect(new Set(reloads.map((r) => r.servedBy))).toEqual(new Set(['r1', 'r2']));
    expect(reloads.map((r) => [r.status, r.body.template_count])).toEqual([
      [200, 2],
      [200, 2],
    ]);
    const after = (await call<{ id: number; name: string; source: string }[]>('GET', '/templates')).body.filter(
      (t) => t.source === repoDir,
    );
    expect(after.map((t) => ({ id: t.id, name: t.name })).sort((a, b) => a.id - b.id)).toEqual([
      { id: alpha.id, name: 'Alpha' },
      { id: expect.any(Number), name: 'Beta' },
    ]);
    expect((await call('DELETE', `/template_repos/${repo.body.id}`)).status).toBe(204);
  });

  describe('with an agent and a deployment', () => {
    let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
    let agent: RunningAgent;
    let actualState = 'pending';
    let targetId: number;
    let deploymentId: number;
    const streams: ResultStream[] = [];
    const clients: Client[] = [];

    beforeAll(async () => {
      // Stands for an external adapter (Kubernetes, Marathon), which cannot run here: its
      // services report `actualState` as the test sets it.
      adapter = await startFakeAdapter((call: RecordedCall, res: ServerResponse) => {
        if (call.method !== 'GET' || !call.path.startsWith('/v1/services/')) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: decodeURIComponent(call.path.slice(13)), actualState }));
        return true;
      });
      agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
      const repoDir = makeGitRepo({ 'wp.pmx': pmx('WordPress') });
      dirs.push(repoDir);
      await call('POST', '/template_repos', { body: { name: repoDir } });
      const template = (await call<{ id: number; source: string }[]>('GET', '/templates')).body.find((t) => t.source === repoDir)!;
      targetId = (await call<{ id: number }>('POST', '/deployment_targets', { body: { name: 'k8s', auth_blob: agent.token } })).body.id;
      deploymentId = (
        await call<{ id: number }>('POST', `/deployment_targets/${targetId}/deployments`, { body: { template_id: template.id } })
      ).body.id;
    }, 60_000);

    afterEach(async () => {
      await Promise.all(streams.splice(0).map((s) => s.close()));
      await Promise.all(clients.splice(0).map((c) => Promise.resolve(c.dispose())));
    });

    afterAll(async () => {
      await agent?.close();
      await adapter?.close();
    });

    const event = (state: string) => ({
      data: {
        deploymentStatusChanged: {
          targetId,
          deploymentId,
          status: { services: [{ actualState: state }, { actualState: state }] },
          error: null,
        },
      },
    });

    /** An SSE subscription through the balancer that landed on `replica` (others opened on the way are closed). */
    async function subscribeOn(replica: string): Promise<ResultStream> {
      for (let attempt = 0; attempt < 10; attempt++) {
        const stream = await sseSubscribe(balancer.url, DEPLOYMENT_STATUS, { targetId, id: deploymentId }, ADMIN);
        if (stream.headers['x-served-by'] === replica) {
          streams.push(stream);
          return stream;
        }
        await stream.close();
      }
      throw new Error(`no subscription landed on ${replica}`);
    }

    test('subscriptions fire on every replica behind the balancer, over SSE and WebSocket', async () => {
      await bothServing();
      const onR1 = await subscribeOn('r1');
      const onR2 = await subscribeOn('r2');
      const client = wsClient(balancer.url, ADMIN);
      clients.push(client);
      const overWs = wsSubscribe(client, DEPLOYMENT_STATUS, { targetId, id: deploymentId });
      streams.push(overWs);
      for (const stream of [onR1, onR2, overWs]) expect(await stream.next()).toEqual(event('pending'));
      actualState = 'running';
      for (const stream of [onR1, onR2, overWs]) expect(await stream.next(30_000)).toEqual(event('running'));
    }, 90_000);

    test('kill -9 of a replica: no acknowledged write is lost, reads and the other replica’s clients see nothing, its own clients reconnect', async () => {
      await bothServing();
      const [victim, survivor] = replicas;
      const onVictim = await subscribeOn(victim.name);
      const onSurvivor = await subscribeOn(survivor.name);
      for (const stream of [onVictim, onSurvivor]) expect(await stream.next()).toEqual(event(actualState));

      // A writer (one write at a time, as a client that waits for each answer) and two readers.
      const acknowledged: string[] = [];
      const lostWrites: { name: string; sentAt: number; outcome: string }[] = [];
      const failedReads: string[] = [];
      const readsAfterKill: string[] = [];
      let killed = false;
      let stop = false;
      // When the balancer took the dead replica out (its log says so).
      let outAt: number | undefined;
      const noteOut = () => (outAt ??= balancer.output().includes(`Server replicas/${victim.name} is DOWN`) ? Date.now() : undefined);
      const outcomeOf = (error: Error) => `dropped ${(error as { code?: string }).code ?? error.message}`;
      const writer = (async () => {
        for (let i = 0; !stop; i++) {
          const name = `reg-${i}`;
          const sentAt = Date.now();
          const res = await call('POST', '/registries', { body: { name, endpoint_url: `https://r${i}.example.com` } }).catch(
            (error: Error) => outcomeOf(error),
          );
          noteOut();
          if (typeof res !== 'string' && res.status === 201) acknowledged.push(name);
          else lostWrites.push({ name, sentAt, outcome: typeof res === 'string' ? res : `${res.status} from ${res.servedBy}` });
        }
      })();
      const reader = async () => {
        while (!stop) {
          const res = await call('GET', '/registries').catch((error: Error) => outcomeOf(error));
          noteOut();
          if (typeof res === 'string' || res.status !== 200) failedReads.push(typeof res === 'string' ? res : `${res.status}`);
          else if (killed) readsAfterKill.push(res.servedBy!);
        }
      };
      const readers = [reader(), reader()];

      await waitUntil(() => Promise.resolve(acknowledged.length >= 20), 'writes before the kill', 60_000);
      const killedAt = Date.now();
      process.kill(victim.process.pid, 'SIGKILL');
      killed = true;
      const atKill = acknowledged.length;
      await victim.process.exited;
      try {
        // Keep going until the survivor alone has taken plenty of writes and reads.
        await waitUntil(
          () =>
            Promise.resolve(
              outAt !== undefined && acknowledged.length >= atKill + 30 && readsAfterKill.filter((r) => r === survivor.name).length >= 30,
            ),
          'writes and reads after the kill',
          90_000,
          balancer.output,
        );
        stop = true;
        await Promise.all([writer, ...readers]);

        // Reads were retried on the survivor by the balancer: none failed, none was dropped.
        expect(failedReads).toEqual([]);
        // A write lost its answer only if it was sent between the kill and the balancer taking
        // the dead replica out (it may have reached the dead one, so it is not sent again): its
        // connection dropped, or the balancer's 502 for the dead replica. Nothing else failed.
        expect(
          lostWrites.filter(
            (w) => !(w.sentAt >= killedAt - 5_000 && w.sentAt <= outAt! && /^(dropped UND_ERR_SOCKET|502 from r\d)$/.test(w.outcome)),
          ),
        ).toEqual([]);
        // Every acknowledged write is there, once.
        const stored = (await call<{ name: string }[]>('GET', '/registries')).body.map((r) => r.name);
        expect(acknowledged.filter((name) => !stored.includes(name))).toEqual([]);
        expect(new Set(stored).size).toBe(stored.length);

        // The survivor's subscriber saw nothing happen; the victim's saw its stream end, and a new
        // subscription through the balancer reaches the survivor and carries on.
        const victimStream = await onVictim.next(20_000).then(
          (value) => (value === undefined ? 'ended' : 'an event'),
          (error: Error) => (error.message.startsWith('no event') ? 'still open' : 'ended'),
        );
        expect(victimStream).toBe('ended');
        const again = await sseSubscribe(balancer.url, DEPLOYMENT_STATUS, { targetId, id: deploymentId }, ADMIN);
        streams.push(again);
        expect({ status: again.status, servedBy: again.headers['x-served-by'] }).toEqual({ status: 200, servedBy: survivor.name });
        expect(await again.next()).toEqual(event(actualState));
        actualState = 'failed';
        expect(await onSurvivor.next(30_000)).toEqual(event('failed'));
        expect(await again.next(30_000)).toEqual(event('failed'));
      } finally {
        stop = true;
        // The victim comes back on its port and data dir, and the balancer sends it requests again.
        replicas[0] = await startReplica(victim.name, victim.port, victim.dataDir);
        await bothServing();
      }
    }, 300_000);
  });

  describeDocker('background work happens once', () => {
    const docker = testDockerClient();
    // The installation's id, which its containers carry: the engine is shared with other runs.
    let instance: string;
    beforeAll(async () => {
      const client = new PgClient({ connectionString: db.url });
      await client.connect();
      instance = (await client.query<{ id: string }>('select id from platform_instance')).rows[0].id;
      await client.end();
    });
    afterAll(async () => {
      // Whatever a failed run left on the engine.
      if (instance) await removeByLabel(`platform.instance=${instance}`);
      await docker.close();
    });

    /** The app's services as the balancer answers them. */
    const servicesOf = async (appId: number) =>
      (await call<{ id: number; name: string; sub_state: string | null }[]>('GET', `/apps/${appId}/services`)).body;
    const containersOf = async (appId: number, serviceId: number) =>
      docker.listContainers({
        all: true,
        labels: { 'platform.instance': instance, 'platform.app': String(appId), 'platform.service': String(serviceId) },
      });

    test("an app's start left half-done by a killed replica is finished once, by the other", async () => {
      await bothServing();
      // web waits for db to be healthy, and db is healthy only once the test puts a file in a
      // directory it mounts: the start is in progress, on the replica that took the request, for
      // as long as the test needs.
      const gate = mkdtempSync(path.join(os.tmpdir(), 'replica-gate-'));
      dirs.push(gate);
      const compose = [
        'services:',
        '  db:',
        `    image: ${TEST_IMAGE}`,
        '    command: sleep 3600',
        `    volumes: ['${gate}:/gate']`,
        '    healthcheck: {test: ["CMD", "test", "-f", "/gate/ready"], interval: 1s, retries: 600}',
        '  web:',
        `    image: ${TEST_IMAGE}`,
        '    command: sleep 3600',
        '    depends_on:',
        '      db: {condition: service_healthy}',
        '',
      ].join('\n');
      const created = await call<{ id: number }>('POST', '/apps', { body: { compose_yaml: compose, name: 'half-done' } });
      expect(created.status).toBe(200);
      const appId = created.body.id;
      const starter = replicas.find((r) => r.name === created.servedBy)!;
      const other = replicas.find((r) => r !== starter)!;
      try {
        // db is made (its start done, its health check not yet passing) and web waits for it,
        // unmade: what the database says of their starts.
        const marks = async () => {
          const client = new PgClient({ connectionString: db.url });
          await client.connect();
          try {
            const { rows } = await client.query<{ name: string; id: number; starting: boolean }>(
              'select name, id, starting_at is not null as starting from services where app_id = $1 order by id',
              [appId],
            );
            return rows;
          } finally {
            await client.end();
          }
        };
        let seen: { name: string; id: number; starting: boolean }[] = [];
        await waitUntil(
          async () => {
            seen = await marks();
            return JSON.stringify(seen.map((s) => [s.name, s.starting])) === '[["db",false],["web",true]]';
          },
          'db made and web waiting for it',
          60_000,
          () => JSON.stringify(seen),
        );
        const [dbService, web] = seen;
        expect((await containersOf(appId, dbService.id)).length).toBe(1);
        expect(await containersOf(appId, web.id)).toEqual([]);

        process.kill(starter.process.pid, 'SIGKILL');
        await starter.process.exited;
        // The survivor sees the start mark go stale and its lock free, and takes the start over.
        await waitUntil(
          () => Promise.resolve(other.process.output().includes('"msg":"resuming an interrupted start"')),
          'the other replica resumed the start',
          60_000,
          other.process.output,
        );
        writeFileSync(path.join(gate, 'ready'), '');
        let states: unknown;
        await waitUntil(
          async () => {
            const services = await servicesOf(appId);
            states = services;
            return services.every((s) => s.sub_state === 'running');
          },
          'every service running',
          90_000,
          () =>
            `${JSON.stringify(states)}\n${other.process
              .output()
              .split('\n')
              .filter((l) => /resum|"level":[456]0/.test(l))
              .join('\n')}`,
        );
        expect((await containersOf(appId, web.id)).length).toBe(1);
        expect((await containersOf(appId, dbService.id)).length).toBe(1);
        const resumed = other.process
          .output()
          .split('\n')
          .filter((line) => line.includes('resuming an interrupted start'))
          .map((line) => JSON.parse(line) as { appId: number; services: string[] })
          .map(({ appId: id, services }) => ({ appId: id, services }));
        expect(resumed).toEqual([{ appId, services: ['web'] }]);

        // The killed replica comes back: nothing is left to resume, and nothing starts twice.
        const index = replicas.indexOf(starter);
        replicas[index] = await startReplica(starter.name, starter.port, starter.dataDir);
        await bothServing();
        expect((await containersOf(appId, web.id)).length).toBe(1);
        expect(replicas[index].process.output()).not.toContain('resuming an interrupted start');
      } finally {
        // A start still waiting for db would hold the delete up: let it finish first.
        writeFileSync(path.join(gate, 'ready'), '');
        expect((await call('DELETE', `/apps/${appId}`)).status).toBe(204);
      }
    }, 240_000);
  });
});
