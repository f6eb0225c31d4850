import { expect, jest } from '@jest/globals';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, removeByLabel, testDockerClient } from '../helpers/docker';
import { instanceId } from '../apps/fixtures';
import { appContainerId, sleeperApp, sseSubscribe, until, type ResultStream } from './clients';

const STATES = `subscription ($appId: Int!) {
  serviceStateChanged(appId: $appId) { serviceId loadState activeState subState }
}`;

interface StateEvent {
  serviceId: number;
  loadState: string;
  activeState: string;
  subState: string;
}

/**
 * A container stopped and started again before the engine follower handled its `die` was published
 * as `running` twice (the follower inspected it as it was by then), and the second was dropped as a
 * repeat: the subscribers never saw it stop. Both tests make the follower handle the changes late
 * every time, as it did under load with 1,000 subscribers: the first starts it only after them (it
 * looks back over the last minute's engine events), the second holds its engine reads back.
 */
describeDocker('a quick stop and start', () => {
  let t: TestApp;
  let instance: string | undefined;
  const streams: ResultStream[] = [];

  beforeAll(async () => {
    t = await startTestApp({}, { events: { leaderRetryMs: 60_000 } });
    instance = await instanceId(t);
  });

  afterAll(async () => {
    await Promise.all(streams.map((s) => s.close()));
    await t?.close();
    if (instance) await removeByLabel(`platform.instance=${instance}`);
  });

  test('reaches subscribers as both changes the engine reported', async () => {
    const { appId, serviceId } = await sleeperApp(t, { running: true });
    expect(t.app.deps.events.serviceStates.following).toBe(false);
    const docker = testDockerClient();
    try {
      const container = await appContainerId(t, appId);
      await docker.stopContainer(container, 10);
      await docker.startContainer(container);
    } finally {
      await docker.close();
    }

    const subscribed = await sseSubscribe(t.url, STATES, { appId });
    expect(subscribed.status).toBe(200);
    streams.push(subscribed);
    const stream = subscribed;
    const seen: StateEvent[] = [];
    // Until it has stopped and run again (a follower that lost the stop would never get there).
    while (seen.at(-1)?.subState !== 'running' || !seen.some((e) => e.subState === 'exited')) {
      seen.push((await stream.next<{ serviceStateChanged: StateEvent }>(30_000)).data.serviceStateChanged);
    }
    const state = (activeState: string, subState: string) => ({ serviceId, loadState: 'loaded', activeState, subState });
    // Created, started by the app's start; then the test's stop and start.
    expect(seen).toEqual([state('inactive', 'dead'), state('active', 'running'), state('inactive', 'exited'), state('active', 'running')]);
  }, 120_000);

  /**
   * The same while the follower follows: its handling of the `die` held back (as a busy engine
   * holds an inspect) until the container runs again.
   */
  test('followed live, a stop and start handled late still reach subscribers as both changes', async () => {
    const docker = t.app.deps.engineRuntime.docker;
    const subscribed = await sseSubscribe(t.url, 'subscription { serviceStateChanged { appId serviceId loadState activeState subState } }');
    expect(subscribed.status).toBe(200);
    streams.push(subscribed);
    await until(() => t.app.deps.events.serviceStates.following, 'the engine follower');
    const { appId } = await sleeperApp(t);
    const next = async () => {
      for (;;) {
        const event = (await subscribed.next<{ serviceStateChanged: StateEvent & { appId: number } }>(30_000)).data.serviceStateChanged;
        if (event.appId === appId) return event;
      }
    };
    let event: StateEvent & { appId: number };
    do event = await next();
    while (event.subState !== 'running');

    let release!: () => void;
    const held = new Promise<void>((resolve) => (release = resolve));
    const inspect = docker.inspectContainer.bind(docker);
    const spy = jest.spyOn(docker, 'inspectContainer').mockImplementation(async (id) => {
      await held;
      return inspect(id);
    });
    const engine = testDockerClient();
    try {
      const container = await appContainerId(t, appId);
      await engine.stopContainer(container, 10);
      await engine.startContainer(container);
    } finally {
      release();
      await engine.close();
    }
    try {
      const state = (activeState: string, subState: string) => ({
        appId,
        serviceId: event.serviceId,
        loadState: 'loaded',
        activeState,
        subState,
      });
      expect([await next(), await next()]).toEqual([state('inactive', 'exited'), state('active', 'running')]);
    } finally {
      spy.mockRestore();
    }
  }, 120_000);
});
