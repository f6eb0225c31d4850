import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server, type Socket } from 'node:net';
import { jest } from '@jest/globals';
import type { LockKey } from '../../src/events/event-bus';
import { ENGINE_FOLLOWER_LOCK } from '../../src/events/service-state-feed';
import { ADMIN_TOKEN } from '../helpers/app';
import { describeDocker, removeByLabel, TEST_IMAGE, testDockerHost } from '../helpers/docker';
import { sseSubscribe, until, type ResultStream } from './clients';
import { startReplicas, type Replicas } from './replicas';

/** A unix-socket proxy to the engine that can be taken down (dropping every stream) and back up. */
class EngineSwitch {
  readonly path = `/tmp/platform-events-engine-${randomBytes(4).toString('hex')}.sock`;
  private server: Server | undefined;
  private readonly sockets = new Set<Socket>();

  async up(): Promise<void> {
    const target = new URL(testDockerHost()).pathname;
    this.server = createServer((client) => {
      const engine = createConnection(target);
      for (const socket of [client, engine]) {
        this.sockets.add(socket);
        socket.on('close', () => this.sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(engine).pipe(client);
      client.on('close', () => engine.destroy());
      engine.on('close', () => client.destroy());
    });
    await new Promise<void>((resolve) => this.server!.listen(this.path, resolve));
  }

  async down(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => (server ? server.close(() => resolve()) : resolve()));
  }
}

/** The engine follower keeps quiet while the engine is unreachable and resumes when it is back. */
describeDocker('service states when the engine goes away', () => {
  const engine = new EngineSwitch();
  let cluster: Replicas;
  let instance: string | undefined;
  let stream: ResultStream | undefined;

  beforeAll(async () => {
    cluster = await startReplicas(1, { leaderRetryMs: 100 }, { DOCKER_HOST: `unix://${engine.path}` });
    const rows: { id: string }[] = await cluster.replicas[0].app.orm.em.getConnection().execute('select id from platform_instance');
    instance = rows[0].id;
  });

  afterAll(async () => {
    await stream?.close();
    await cluster?.close();
    await engine.down();
    if (instance) await removeByLabel(`platform.instance=${instance}`);
  });

  test('no engine: nothing followed, the subscription stays open; the engine up, then dropped, then up: followed again, events flow', async () => {
    const [replica] = cluster.replicas;
    const feed = replica.app.deps.events.serviceStates;
    // Each round of the follower asks for its lock, then tries the engine: the rounds are counted
    // by those calls (not by time), with whether it claimed to follow when each began.
    const rounds: boolean[] = [];
    const tryLock = replica.app.deps.events.bus.tryLock.bind(replica.app.deps.events.bus);
    jest.spyOn(replica.app.deps.events.bus, 'tryLock').mockImplementation((key: LockKey) => {
      if (key.join(':') === ENGINE_FOLLOWER_LOCK.join(':')) rounds.push(feed.following);
      return tryLock(key);
    });
    const opened = await sseSubscribe(replica.url, 'subscription { serviceStateChanged { appId subState } }');
    stream = opened;
    expect(opened.status).toBe(200);
    // Three rounds begun: the first two went to the engine and came back without it.
    await until(() => rounds.length >= 3, 'three rounds of the follower without an engine');
    expect(feed.following).toBe(false);
    expect(rounds.slice(0, 3)).toEqual([false, false, false]);

    await engine.up();
    await until(() => feed.following, 'the follower to reach the engine');
    await engine.down();
    await until(() => !feed.following, 'the follower to notice the drop');
    await engine.up();
    await until(() => feed.following, 'the follower to come back');

    const created = await fetch(`${replica.url}/apps`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ compose_yaml: `blinker:\n  image: ${TEST_IMAGE}\n  command: sleep 1\n` }),
    });
    const appId = ((await created.json()) as { id: number }).id;
    const states: string[] = [];
    while (states.at(-1) !== 'exited') {
      const event = (await opened.next<{ serviceStateChanged: { appId: number; subState: string } }>(30_000)).data.serviceStateChanged;
      if (event.appId === appId) states.push(event.subState);
    }
    expect(states).toContain('running');
  });
});
