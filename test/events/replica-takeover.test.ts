import { expect } from '@jest/globals';
import type { ServerResponse } from 'node:http';
import { startAgent, startFakeAdapter, type RecordedCall, type RunningAgent } from '../agent/agent-harness';
import { ADMIN_TOKEN } from '../helpers/app';
import { describeDocker, TEST_IMAGE, testDockerClient } from '../helpers/docker';
import { makeGitRepo, pmx } from '../helpers/git';
import { cleanupEngine } from '../apps/fixtures';
import { sseSubscribe, until, type ResultStream } from './clients';
import { startReplicas, type Replica, type Replicas } from './replicas';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/**
 * README "Replicas": a producer (a deployment's poller, the engine follower) runs on the one
 * replica holding its advisory lock; when that replica stops, another takes the lock over and its
 * subscribers keep getting events. Two replicas on one database, as behind a load balancer.
 */

/** Stops one replica the way its process would on SIGTERM: streams, server, then the app (which releases its locks). */
async function stop(cluster: Replicas, replica: Replica): Promise<void> {
  cluster.replicas.splice(cluster.replicas.indexOf(replica), 1);
  const closed = new Promise<void>((resolve) => replica.server.close(() => resolve()));
  await replica.app.closeStreams();
  replica.server.closeAllConnections();
  await closed;
  await replica.app.close();
}

async function request<T>(replica: Replica, method: string, path: string, body?: unknown): Promise<T> {
  const response = await fetch(`${replica.url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(response.status).toBeLessThan(300);
  return (await response.json()) as T;
}

/** Reads events until one matches (earlier ones, such as a takeover's first publication, are passed over). */
async function nextMatching<T>(stream: ResultStream, match: (data: T) => boolean): Promise<T> {
  for (;;) {
    const { data } = await stream.next<T>();
    if (match(data)) return data;
  }
}

describe("a deployment's poller moves to another replica when its holder stops", () => {
  let cluster: Replicas;
  let agent: RunningAgent;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let actualState = 'pending';
  const streams: ResultStream[] = [];

  beforeAll(async () => {
    cluster = await startReplicas(2, { deploymentPollMs: 150, leaderRetryMs: 150 });
    // Stands for an external orchestrator (protocol v1), which cannot run here; the agent is real.
    adapter = await startFakeAdapter((call: RecordedCall, res: ServerResponse) => {
      if (call.method !== 'GET' || !call.path.startsWith('/v1/services/')) return false;
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: decodeURIComponent(call.path.slice(13)), actualState }));
      return true;
    });
    agent = await startAgent({ env: { ADAPTER_URL: adapter.url } });
  });

  afterAll(async () => {
    await Promise.all(streams.map((s) => s.close()));
    await cluster?.close();
    await agent?.close();
    await adapter?.close();
  });

  test('subscribers of the surviving replica get the changes its new poller reads', async () => {
    const [first] = cluster.replicas;
    const images = ['  - name: web', `    source: ${TEST_IMAGE}`].join('\n');
    await request(first, 'POST', '/template_repos', { name: makeGitRepo({ 'one.pmx': pmx('One', { images }) }) });
    const [template] = await request<{ id: number }[]>(first, 'GET', '/templates');
    const targetId = (await request<{ id: number }>(first, 'POST', '/deployment_targets', { name: 'k8s', auth_blob: agent.token })).id;
    const id = (await request<{ id: number }>(first, 'POST', `/deployment_targets/${targetId}/deployments`, { template_id: template.id }))
      .id;

    const query = `subscription($targetId: Int!, $id: Int!) {
      deploymentStatusChanged(targetId: $targetId, id: $id) { targetId deploymentId status { services { actualState } } error at }
    }`;
    const event = (state: string) => ({
      deploymentStatusChanged: { targetId, deploymentId: id, status: { services: [{ actualState: state }] }, error: null, at: ISO },
    });
    const subscribed = new Map<Replica, ResultStream>();
    for (const replica of cluster.replicas) {
      const stream = await sseSubscribe(replica.url, query, { targetId, id });
      expect(stream.status).toBe(200);
      streams.push(stream);
      subscribed.set(replica, stream);
      expect((await stream.next()).data).toEqual(event('pending'));
    }

    const holders = () => cluster.replicas.filter((r) => r.app.deps.events.deployments.isPolling(targetId, id));
    await until(() => holders().length === 1, 'one replica to hold the poller');
    const [holder] = holders();
    const survivor = cluster.replicas.find((r) => r !== holder)!;
    // The holder polls, and its subscribers see what it reads; the survivor is waiting for the lock.
    actualState = 'running';
    expect((await subscribed.get(survivor)!.next()).data).toEqual(event('running'));

    // Changed as soon as the holder is gone: the survivor publishes it once it holds the lock.
    await stop(cluster, holder);
    actualState = 'stopped';
    expect(
      await nextMatching(
        subscribed.get(survivor)!,
        (d: ReturnType<typeof event>) => d.deploymentStatusChanged.status.services[0].actualState === 'stopped',
      ),
    ).toEqual(event('stopped'));
  }, 120_000);
});

describeDocker('the engine follower moves to another replica when its holder stops', () => {
  let cluster: Replicas;
  let instance: string | undefined;
  const streams: ResultStream[] = [];

  beforeAll(async () => {
    cluster = await startReplicas(2, { leaderRetryMs: 150 });
    const rows: { id: string }[] = await cluster.replicas[0].app.orm.em.getConnection().execute('select id from platform_instance');
    instance = rows[0].id;
  });

  afterAll(async () => {
    await Promise.all(streams.map((s) => s.close()));
    await cluster?.close();
    if (instance) await cleanupEngine(instance);
  });

  test("subscribers of the surviving replica get a container's change that only its follower saw", async () => {
    const [first] = cluster.replicas;
    const app = await request<{ id: number }>(first, 'POST', '/apps', {
      compose_yaml: `services:\n  web:\n    image: ${TEST_IMAGE}\n    command: sleep 3600\n`,
    });
    type Service = { id: number; container_status: { id?: string }; sub_state: string | null };
    let service: Service | undefined;
    await until(async () => {
      [service] = await request<Service[]>(first, 'GET', `/apps/${app.id}/services`);
      return service?.sub_state === 'running';
    }, 'the service to run');

    const query = `subscription($appId: Int) { serviceStateChanged(appId: $appId) { appId serviceId loadState activeState subState at } }`;
    const subscribed = new Map<Replica, ResultStream>();
    for (const replica of cluster.replicas) {
      const stream = await sseSubscribe(replica.url, query, { appId: app.id });
      expect(stream.status).toBe(200);
      streams.push(stream);
      subscribed.set(replica, stream);
    }
    const followers = () => cluster.replicas.filter((r) => r.app.deps.events.serviceStates.following);
    await until(() => followers().length === 1, 'one replica to follow the engine');
    const [holder] = followers();
    const survivor = cluster.replicas.find((r) => r !== holder)!;

    // Killed as soon as the holder is gone: the survivor, once it follows, looks back over the
    // time the lock was free, so the change is published however long the takeover takes.
    await stop(cluster, holder);
    const docker = testDockerClient();
    try {
      await docker.request('POST', `/containers/${service!.container_status.id}/kill`);
    } finally {
      await docker.close();
    }
    type Event = { serviceStateChanged: { subState: string } };
    // The look-back publishes again the changes of the app's start before it (created, running): these
    // subscribers had not seen them, and they end where the engine is.
    expect(await nextMatching(subscribed.get(survivor)!, (d: Event) => d.serviceStateChanged.subState === 'failed')).toEqual({
      serviceStateChanged: {
        appId: app.id,
        serviceId: service!.id,
        loadState: 'loaded',
        activeState: 'failed',
        subState: 'failed',
        at: ISO,
      },
    });
  }, 180_000);
});
