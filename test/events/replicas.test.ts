import { expect, jest } from '@jest/globals';
import { rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import type { DeploymentReader } from '../../src/events/deployment-watcher';
import type { LockKey } from '../../src/events/event-bus';
import type { Client } from 'graphql-ws';
import { startAgent, startFakeAdapter, type RecordedCall, type RunningAgent } from '../agent/agent-harness';
import { makeGitRepo, pmx } from '../helpers/git';
import { ADMIN_TOKEN } from '../helpers/app';
import { sseSubscribe, until, wsClient, wsConnectionOutcome, wsSubscribe, type ResultStream } from './clients';
import { startReplicas, type Replica, type Replicas } from './replicas';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

const SERVICE_STATES = `subscription States($appId: Int) {
  serviceStateChanged(appId: $appId) { appId serviceId loadState activeState subState at }
}`;

const DEPLOYMENT_STATUS = `subscription Status($targetId: Int!, $id: Int!) {
  deploymentStatusChanged(targetId: $targetId, id: $id) { targetId deploymentId status { services { orchestratorId actualState } } error at }
}`;

/**
 * Two instances of the service on one database (each its own port, data dir and bus connection),
 * as replicas behind a load balancer: what happens on one reaches subscribers of the other.
 */
describe('subscriptions across replicas', () => {
  let cluster: Replicas;
  let a: Replica;
  let b: Replica;
  const streams: ResultStream[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    cluster = await startReplicas(2, { deploymentPollMs: 150, leaderRetryMs: 150 });
    [a, b] = cluster.replicas;
  });

  afterEach(async () => {
    await Promise.all(streams.splice(0).map((s) => s.close()));
    await Promise.all(clients.splice(0).map((c) => Promise.resolve(c.dispose())));
  });

  afterAll(async () => {
    await cluster?.close();
  });

  const sse = async (replica: Replica, query: string, variables: Record<string, unknown> = {}) => {
    const stream = await sseSubscribe(replica.url, query, variables);
    expect(stream.status).toBe(200);
    streams.push(stream);
    return stream;
  };
  const ws = (replica: Replica, query: string, variables: Record<string, unknown> = {}) => {
    const client = wsClient(replica.url);
    clients.push(client);
    const stream = wsSubscribe(client, query, variables);
    streams.push(stream);
    return stream;
  };
  const state = (serviceId: number, subState: string) => ({
    appId: 1,
    serviceId,
    loadState: 'loaded',
    activeState: subState === 'running' ? 'active' : 'inactive',
    subState,
    at: new Date().toISOString(),
  });

  test('a service state published on A reaches subscribers of B over SSE and over graphql-ws; a repeat is dropped', async () => {
    const overSse = await sse(b, SERVICE_STATES);
    const overWs = ws(b, SERVICE_STATES);
    await until(() => b.app.deps.events.bus.subscriberCount('service_state') === 2, "B's two subscribers");
    await b.app.deps.events.bus.whenListening('service_state');

    const running = state(41, 'running');
    await a.app.deps.events.bus.publish('service_state', running);
    await a.app.deps.events.bus.publish('service_state', running);
    const exited = state(41, 'exited');
    await a.app.deps.events.bus.publish('service_state', exited);

    for (const stream of [overSse, overWs]) {
      expect(await stream.next()).toEqual({ data: { serviceStateChanged: { ...running, at: ISO } } });
      expect(await stream.next()).toEqual({ data: { serviceStateChanged: { ...exited, at: ISO } } });
    }
  });

  test('a client that leaves an SSE stream ends its subscription on the server', async () => {
    const count = () => b.app.deps.events.bus.subscriberCount('service_state');
    await until(() => count() === 0, "the previous test's subscribers to leave");
    const stream = await sse(b, SERVICE_STATES);
    expect(count()).toBe(1);
    await stream.close();
    await until(() => count() === 0, 'the subscriber to leave');
  });

  test('no token: SSE is 401, graphql-ws closes with 4401; a token in the upgrade header is accepted', async () => {
    const anonymous = await sseSubscribe(b.url, SERVICE_STATES, {}, null);
    expect(anonymous.status).toBe(401);
    expect(anonymous.body).toEqual({ code: 401, message: expect.stringContaining('bearer token'), fields: '' });
    const wrong = await sseSubscribe(b.url, SERVICE_STATES, {}, 'plt_not-a-token');
    expect(wrong.status).toBe(401);

    expect(await wsConnectionOutcome(b.url, undefined)).toEqual({
      code: 4401,
      reason: expect.stringContaining('bearer token'),
      acked: false,
    });
    expect(await wsConnectionOutcome(b.url, { authorization: 'Bearer plt_not-a-token' })).toEqual({
      code: 4401,
      reason: 'the bearer token is not valid',
      acked: false,
    });
    expect(await wsConnectionOutcome(b.url, { authorization: `Bearer ${ADMIN_TOKEN}` })).toMatchObject({ acked: true });
    expect(await wsConnectionOutcome(b.url, undefined, { authorization: `Bearer ${ADMIN_TOKEN}` })).toMatchObject({ acked: true });
  });

  test('a subscription to an unknown app or target fails with the error, over both transports', async () => {
    const overSse = await sseSubscribe(b.url, SERVICE_STATES, { appId: 9999 });
    streams.push(overSse);
    expect(overSse.status).toBe(404);
    expect(await overSse.next()).toEqual({
      errors: [expect.objectContaining({ message: 'app 9999 not found', extensions: expect.objectContaining({ code: 'NOT_FOUND' }) })],
    });
    const client = wsClient(b.url);
    clients.push(client);
    const overWs = wsSubscribe(client, DEPLOYMENT_STATUS, { targetId: 9999, id: 1 });
    await expect(overWs.next()).resolves.toEqual({ errors: [expect.objectContaining({ message: 'deployment target 9999 not found' })] });
  });

  describe('deployment status from a real agent', () => {
    let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
    let agent: RunningAgent;
    let repoDir: string;
    let actualState = 'pending';
    let targetId: number;
    let deploymentId: number;
    /** GET /deployments/<id> the agent served: what the pollers asked. */
    let agentReads = 0;

    beforeAll(async () => {
      // Stands for an external adapter (Kubernetes, Marathon), which cannot run here: its
      // services report `actualState` as the test sets it.
      adapter = await startFakeAdapter((call: RecordedCall, res: ServerResponse) => {
        if (call.method !== 'GET' || !call.path.startsWith('/v1/services/')) return false;
        res.writeHead(200, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ id: decodeURIComponent(call.path.slice(13)), actualState }));
        return true;
      });
      agent = await startAgent({
        env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url },
        onRequest: (req) => {
          if (req.method === 'GET' && req.url === `/deployments/${deploymentId}`) agentReads++;
        },
      });
      repoDir = makeGitRepo({ 'wp.pmx': pmx('WordPress') });
      const request = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
        const response = await fetch(`${a.url}${path}`, {
          method,
          headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
          body: body === undefined ? undefined : JSON.stringify(body),
        });
        return (await response.json()) as T;
      };
      await request<unknown>('POST', '/template_repos', { name: repoDir });
      const [template] = await request<{ id: number }[]>('GET', '/templates');
      targetId = (await request<{ id: number }>('POST', '/deployment_targets', { name: 'k8s', auth_blob: agent.token })).id;
      deploymentId = (await request<{ id: number }>('POST', `/deployment_targets/${targetId}/deployments`, { template_id: template.id }))
        .id;
    });

    afterAll(async () => {
      await agent?.close();
      await adapter?.close();
      if (repoDir) rmSync(repoDir, { recursive: true, force: true });
    });

    /**
     * Counts one replica's reads of the agent for its pollers: `started` as they begin, and the
     * agent's and the adapter's counts as each ends (a poller reads, then waits a period).
     */
    function countReads(replica: Replica) {
      const watcher = replica.app.deps.events.deployments as unknown as { read: DeploymentReader };
      const read = watcher.read;
      const counts = { started: 0, done: [] as { agentReads: number; adapterCalls: number }[] };
      watcher.read = async (target, id) => {
        counts.started++;
        try {
          return await read(target, id);
        } finally {
          counts.done.push({ agentReads, adapterCalls: adapter.calls.length });
        }
      };
      return counts;
    }

    /** Counts the rounds in which a replica asked for a deployment's advisory lock. */
    function countLockRounds(replica: Replica, lock: LockKey) {
      const bus = replica.app.deps.events.bus;
      const tryLock = bus.tryLock.bind(bus);
      let rounds = 0;
      jest.spyOn(bus, 'tryLock').mockImplementation((key: LockKey) => {
        if (key.join(':') === lock.join(':')) rounds++;
        return tryLock(key);
      });
      return { count: () => rounds };
    }

    test('subscribers on both replicas get the status, then its change; one replica polls the agent', async () => {
      const services = (s: string) => [
        { orchestratorId: expect.stringMatching(/^web-svc-/), actualState: s },
        { orchestratorId: expect.stringMatching(/^db-svc-/), actualState: s },
      ];
      const event = (s: string) => ({
        data: { deploymentStatusChanged: { targetId, deploymentId, status: { services: services(s) }, error: null, at: ISO } },
      });
      const vars = { targetId, id: deploymentId };
      const onB = await sse(b, DEPLOYMENT_STATUS, vars);
      const onA = ws(a, DEPLOYMENT_STATUS, vars);
      expect(await onB.next()).toEqual(event('pending'));
      expect(await onA.next()).toEqual(event('pending'));

      // Both replicas watch; the advisory lock lets one of them ask the agent.
      const polling = () => [a, b].filter((r) => r.app.deps.events.deployments.isPolling(targetId, deploymentId)).length;
      await until(() => polling() === 1, 'one poller');
      const [holder, other] = a.app.deps.events.deployments.isPolling(targetId, deploymentId) ? [a, b] : [b, a];
      const holderReads = countReads(holder);
      const otherReads = countReads(other);
      const otherRounds = countLockRounds(other, [targetId, deploymentId]);
      // Counted by events: five of the holder's reads of the agent, and five rounds in which the
      // other replica asked for the lock (its chance to poll too, were the lock not kept).
      const from = { holder: holderReads.done.length, other: otherReads.started, rounds: otherRounds.count() };
      await until(() => holderReads.done.length >= from.holder + 6 && otherRounds.count() >= from.rounds + 5, 'five rounds of each');
      expect(polling()).toBe(1);
      expect(otherReads.started - from.other).toBe(0);
      // Between two of the holder's reads, the agent served exactly one read per holder read, each
      // asking the adapter for both services: nobody else asked.
      const [first, last] = [holderReads.done[from.holder], holderReads.done.at(-1)!];
      const reads = holderReads.done.length - 1 - from.holder;
      expect({ agent: last.agentReads - first.agentReads, adapter: last.adapterCalls - first.adapterCalls }).toEqual({
        agent: reads,
        adapter: 2 * reads,
      });

      actualState = 'running';
      expect(await onB.next()).toEqual(event('running'));
      expect(await onA.next()).toEqual(event('running'));
      // Published when it changed only: three more reads of "running" publish nothing, so the
      // next event both streams get is the next change.
      const seen = holderReads.done.length;
      await until(() => holderReads.done.length >= seen + 3, 'three more reads');
      actualState = 'stopped';
      expect(await onB.next()).toEqual(event('stopped'));
      expect(await onA.next()).toEqual(event('stopped'));

      await onA.close();
      await onB.close();
      await until(
        () => a.app.deps.events.deployments.watched.length === 0 && b.app.deps.events.deployments.watched.length === 0,
        'the pollers to stop',
      );
    });
  });
});
