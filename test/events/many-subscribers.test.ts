import { expect } from '@jest/globals';
import { engineCalls } from '../../src/observability/metrics';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, removeByLabel, testDockerClient } from '../helpers/docker';
import { instanceId } from '../apps/fixtures';
import { appContainerId, sleeperApp, sseSubscribe, until, type ResultStream } from './clients';

const SUBSCRIBERS = 6;
const STATES = `subscription ($appId: Int!) {
  serviceStateChanged(appId: $appId) { serviceId subState service { databaseId subState } }
}`;

interface StateEvent {
  serviceId: number;
  subState: string;
  service: { databaseId: number; subState: string } | null;
}

/** How many times the service has called the engine so: `GET /containers/json` lists (each read of a service does once). */
async function engineCallsOf(operation: string): Promise<number> {
  const { values } = await engineCalls.get();
  return values
    .filter((v) => v.metricName === 'engine_request_duration_seconds_count' && v.labels.operation === operation)
    .reduce((sum, v) => sum + v.value, 0);
}
const containerLists = () => engineCallsOf('GET /containers/json');
const inspects = () => engineCallsOf('GET /containers/{id}/json');

/**
 * Every subscriber of `serviceStateChanged` that selects the service used to read it on its own
 * for each change (its row, its containers, an inspect): 1,000 console tabs made 1,000 reads of
 * one service per change. One read serves every subscriber of the event. Neither it nor the engine
 * follower inspects the container: an inspect waits while the engine starts or stops it (200 ms and
 * more), and the event says the state.
 */
describeDocker('many subscribers of one service', () => {
  let t: TestApp;
  let instance: string | undefined;
  const streams: ResultStream[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    instance = await instanceId(t);
  });

  afterAll(async () => {
    await Promise.all(streams.map((s) => s.close()));
    await t?.close();
    if (instance) await removeByLabel(`platform.instance=${instance}`);
  });

  test('a change is read once for all the subscribers that select the service', async () => {
    const { appId, serviceId } = await sleeperApp(t, { running: true });
    for (let i = 0; i < SUBSCRIBERS; i++) {
      const stream = await sseSubscribe(t.url, STATES, { appId });
      expect(stream.status).toBe(200);
      streams.push(stream);
    }
    await until(() => t.app.deps.events.bus.subscriberCount('service_state') === SUBSCRIBERS, 'the subscribers');
    await until(() => t.app.deps.events.serviceStates.following, 'the engine follower');

    const before = await containerLists();
    const inspectsBefore = await inspects();
    const docker = testDockerClient();
    await docker.stopContainer(await appContainerId(t, appId), 10).finally(() => docker.close());
    for (const stream of streams) {
      let event: StateEvent;
      do event = (await stream.next<{ serviceStateChanged: StateEvent }>(30_000)).data.serviceStateChanged;
      while (event.subState !== 'exited');
      expect(event).toEqual({ serviceId, subState: 'exited', service: { databaseId: serviceId, subState: 'exited' } });
    }
    // One read for the change the engine reported (`die`), not one per subscriber.
    expect((await containerLists()) - before).toBeLessThanOrEqual(2);
    expect((await inspects()) - inspectsBefore).toBe(0);
  }, 120_000);
});
