import { expect } from '@jest/globals';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';
import { describeDocker, removeByLabel, TEST_IMAGE, testDockerClient } from '../helpers/docker';
import { sseSubscribe, until, type ResultStream } from './clients';

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
 * repeat: the subscribers never saw it stop. The follower starts here only after both changes, so it
 * handles them late every time (it looks back over the last minute's engine events), as it did under
 * load with 1,000 subscribers.
 */
describeDocker('a quick stop and start', () => {
  let t: TestApp;
  let instance: string | undefined;
  let stream: ResultStream | undefined;

  beforeAll(async () => {
    t = await startTestApp({}, { events: { leaderRetryMs: 60_000 } });
    const rows: { id: string }[] = await t.app.orm.em.getConnection().execute('select id from platform_instance');
    instance = rows[0].id;
  });

  afterAll(async () => {
    await stream?.close();
    await t?.close();
    if (instance) await removeByLabel(`platform.instance=${instance}`);
  });

  test('reaches subscribers as both changes the engine reported', async () => {
    const command = `sh -c 'trap "exit 0" TERM; while :; do sleep 0.1; done'`;
    const app = await t.request<Identified>('POST', '/apps', {
      body: { compose_yaml: `services:\n  sleeper:\n    image: ${TEST_IMAGE}\n    command: ${command}\n` },
    });
    expect(app.status).toBe(200);
    const [service] = (await t.request<{ id: number }[]>('GET', `/apps/${app.body.id}/services`)).body;
    await until(
      async () =>
        (await t.request<{ sub_state: string }>('GET', `/apps/${app.body.id}/services/${service.id}`)).body.sub_state === 'running',
      'the container to run',
    );
    expect(t.app.deps.events.serviceStates.following).toBe(false);
    const docker = testDockerClient();
    try {
      const [container] = await docker.listContainers({ all: true, labels: { 'platform.app': String(app.body.id) } });
      await docker.stopContainer(container.Id, 10);
      await docker.startContainer(container.Id);
    } finally {
      await docker.close();
    }

    const subscribed = await sseSubscribe(t.url, STATES, { appId: app.body.id });
    expect(subscribed.status).toBe(200);
    stream = subscribed;
    const seen: StateEvent[] = [];
    // Until it has stopped and run again (a follower that lost the stop would never get there).
    while (seen.at(-1)?.subState !== 'running' || !seen.some((e) => e.subState === 'exited')) {
      seen.push((await stream.next<{ serviceStateChanged: StateEvent }>(30_000)).data.serviceStateChanged);
    }
    const state = (activeState: string, subState: string) => ({ serviceId: service.id, loadState: 'loaded', activeState, subState });
    // Created, started by the app's start; then the test's stop and start.
    expect(seen).toEqual([state('inactive', 'dead'), state('active', 'running'), state('inactive', 'exited'), state('active', 'running')]);
  }, 120_000);
});
