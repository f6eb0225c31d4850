import { expect } from '@jest/globals';
import type { Client } from 'graphql-ws';
import { ADMIN_TOKEN } from '../helpers/app';
import { describeDocker, removeByLabel, TEST_IMAGE } from '../helpers/docker';
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

    const created = await fetch(`${a.url}/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ compose_yaml: `sleeper:\n  image: ${TEST_IMAGE}\n  command: sleep 2\n` }),
    });
    expect(created.status).toBe(200);
    const appId = ((await created.json()) as { id: number }).id;

    for (const stream of [onB, onA]) {
      type ServiceStateEvent = {
        appId: number;
        serviceId: number;
        service: unknown;
        loadState: string;
        activeState: string;
        subState: string;
      };
      const seen: ServiceStateEvent[] = [];
      while (seen.at(-1)?.subState !== 'exited') {
        const event = (await stream.next<{ serviceStateChanged: ServiceStateEvent }>(30_000)).data.serviceStateChanged;
        if (event.appId === appId) seen.push(event);
      }
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
