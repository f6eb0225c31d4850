import { expect } from '@jest/globals';
import type { Client } from 'graphql-ws';
import { ADMIN_TOKEN } from '../helpers/app';
import { describeDocker, removeByLabel, TEST_IMAGE, testDockerClient } from '../helpers/docker';
import { sseSubscribe, until, wsClient, wsSubscribe, type ResultStream } from './clients';
import { startReplicas, type Replicas } from './replicas';

// `service`: the object the event is about, with its global id, so a normalized cache updates itself.
const STATES = 'subscription { serviceStateChanged { appId serviceId service { id databaseId } loadState activeState subState at } }';

/**
 * The engine's own event stream: a container of an app created through replica A starts and
 * exits on the real engine; subscribers of both replicas see `running`, then `exited`, published
 * once by whichever replica follows the engine.
 */
describeDocker('service states from the engine', () => {
  let cluster: Replicas;
  let instance: string;
  let client: Client | undefined;
  const streams: ResultStream[] = [];

  beforeAll(async () => {
    cluster = await startReplicas(2, { leaderRetryMs: 200 });
    const rows: { id: string }[] = await cluster.replicas[0].app.orm.em.getConnection().execute('select id from platform_instance');
    instance = rows[0].id;
  });

  afterAll(async () => {
    await Promise.all(streams.map((s) => s.close()));
    await client?.dispose();
    await cluster?.close();
    if (instance) await removeByLabel(`platform.instance=${instance}`);
  });

  test('a container that starts and exits gives running, then exited, to subscribers of both replicas', async () => {
    const [a, b] = cluster.replicas;
    const onB = await sseSubscribe(b.url, STATES);
    expect(onB.status).toBe(200);
    streams.push(onB);
    client = wsClient(a.url);
    const onA = wsSubscribe(client, STATES);
    streams.push(onA);
    await until(() => a.app.deps.events.bus.subscriberCount('service_state') === 1, "A's subscriber");
    // One follower for the database: the replicas share the engine.
    const following = () => cluster.replicas.filter((r) => r.app.deps.events.serviceStates.following).length;
    await until(() => following() === 1, 'a replica to follow the engine');

    // The container runs until the test stops it (its shell exits 0 on SIGTERM), so `running` is
    // on the engine however long the follower takes to inspect it.
    const command = `sh -c 'trap "exit 0" TERM; while :; do sleep 0.1; done'`;
    const created = await fetch(`${a.url}/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ compose_yaml: `sleeper:\n  image: ${TEST_IMAGE}\n  command: ${command}\n` }),
    });
    expect(created.status).toBe(200);
    const appId = ((await created.json()) as { id: number }).id;

    type ServiceStateEvent = {
      appId: number;
      serviceId: number;
      service: unknown;
      loadState: string;
      activeState: string;
      subState: string;
    };
    const seenOn = new Map<ResultStream, ServiceStateEvent[]>([
      [onB, []],
      [onA, []],
    ]);
    const readUntil = async (stream: ResultStream, subState: string) => {
      const seen = seenOn.get(stream)!;
      while (seen.at(-1)?.subState !== subState) {
        const event = (await stream.next<{ serviceStateChanged: ServiceStateEvent }>(30_000)).data.serviceStateChanged;
        if (event.appId === appId) seen.push(event);
      }
    };
    for (const stream of [onB, onA]) await readUntil(stream, 'running');
    const docker = testDockerClient();
    try {
      const [container] = await docker.listContainers({ labels: { 'platform.app': String(appId), 'platform.instance': instance } });
      await docker.stopContainer(container.Id);
    } finally {
      await docker.close();
    }

    for (const stream of [onB, onA]) {
      await readUntil(stream, 'exited');
      const seen = seenOn.get(stream)!;
      const running = seen.findIndex((e) => e.subState === 'running');
      expect(running).toBeGreaterThanOrEqual(0);
      expect(seen[running]).toEqual({
        appId,
        serviceId: expect.any(Number),
        service: { id: expect.any(String), databaseId: seen[running].serviceId },
        loadState: 'loaded',
        activeState: 'active',
        subState: 'running',
        at: expect.any(String),
      });
      expect(seen.at(-1)).toEqual({ ...seen[running], activeState: 'inactive', subState: 'exited', at: expect.any(String) });
      // Repeats (create/start, die/stop) are dropped: each state differs from the one before it.
      for (let i = 1; i < seen.length; i++) expect(seen[i].subState).not.toBe(seen[i - 1].subState);
    }
    expect(following()).toBe(1);
  });
});
