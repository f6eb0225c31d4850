import { expect } from '@jest/globals';
import { Client } from 'pg';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { agentRequest, startAgent, startFakeAdapter, type AgentDeploymentBody, type RunningAgent } from './agent-harness';

type Listed = AgentDeploymentBody & { template: number | null; redeployable: boolean };

/**
 * Watches a database for sessions waiting for a lock (pg_stat_activity; PostgreSQL has no event
 * for it, so it is polled) until `stop` is called.
 */
function watchLockWaits(watcher: Client): { waiting: Promise<void>; stop: () => void } {
  let stopped = false;
  const waiting = (async () => {
    while (!stopped) {
      const { rows } = await watcher.query<{ n: number }>(
        "select count(*)::int as n from pg_stat_activity where datname = current_database() and wait_event_type = 'Lock'",
      );
      if (rows[0].n > 0) return;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    await new Promise<never>(() => undefined);
  })();
  return { waiting, stop: () => (stopped = true) };
}

/** The promise's value; a failure as soon as a session of the database waits for the lock instead. */
async function withoutWaiting<T>(watcher: Client, promise: Promise<T>): Promise<T> {
  const locks = watchLockWaits(watcher);
  try {
    return await Promise.race([
      promise,
      locks.waiting.then(() => {
        throw new Error('the read waited for the table lock: it went to the database');
      }),
    ]);
  } finally {
    locks.stop();
  }
}

/**
 * The agent answers reads (the list, one deployment) from memory and its own writes keep that
 * memory true: the main service asks every agent on every query and poll (bench scenario 2).
 * A table lock held by another session shows which requests reach the database.
 */
describe('agent reads from memory, writes through', () => {
  let fake: Awaited<ReturnType<typeof startFakeAdapter>>;
  let database: TestDatabase;
  let agent: RunningAgent;
  let locker: Client;
  let watcher: Client;

  beforeAll(async () => {
    fake = await startFakeAdapter();
    database = await createTestDatabase('agent_reads');
    agent = await startAgent({ env: { ADAPTER_URL: fake.url }, database });
    locker = new Client({ connectionString: database.url });
    await locker.connect();
    watcher = new Client({ connectionString: database.url });
    await watcher.connect();
  });
  afterAll(async () => {
    await locker?.end();
    await watcher?.end();
    await agent?.close();
    await database?.drop();
    await fake?.close();
  });

  const deploy = (name: string) =>
    agentRequest<Listed>(agent, 'POST', '/deployments', {
      body: { template: { name, images: [{ name: 'web', source: 'example/web' }] } },
    });
  const list = async () => (await agentRequest<Listed[]>(agent, 'GET', '/deployments?include=status')).body;
  /** Holds an exclusive lock on the deployments table until the returned release is called. */
  const lockTable = async () => {
    await locker.query('begin');
    await locker.query('lock table agent_deployments in access exclusive mode');
    return async () => void (await locker.query('commit'));
  };

  test('reads answer while the table is locked; a write waits for it and is read at once after', async () => {
    const first = await deploy('first');
    expect(first.status).toBe(200);
    expect((await list()).map((d) => d.name)).toEqual(['first']);

    const release = await lockTable();
    let released = false;
    try {
      // Without the in-memory rows these two would wait for the lock.
      const listed = await withoutWaiting(watcher, list());
      expect(listed.map((d) => [d.id, d.name, d.service_ids, d.status.services[0]?.actualState])).toEqual([
        [first.body.id, 'first', first.body.service_ids, 'running 2/2'],
      ]);
      expect(
        (await withoutWaiting(watcher, agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${first.body.id}`))).body,
      ).toMatchObject({
        id: first.body.id,
        name: 'first',
        redeployable: true,
      });

      // A write goes to the database: it waits for the lock, and is answered once it is gone.
      const second = deploy('second');
      const locks = watchLockWaits(watcher);
      const outcome = await Promise.race([second.then(() => 'answered'), locks.waiting.then(() => 'waiting for the lock')]);
      locks.stop();
      expect(outcome).toBe('waiting for the lock');
      released = true;
      await release();
      const res = await second;
      expect(res.status).toBe(200);
      expect((await list()).map((d) => d.name)).toEqual(['first', 'second']);
    } finally {
      if (!released) await release();
    }
  });

  test('a redeploy and a delete are read at once after they answer', async () => {
    const [one] = await list();
    const redeployed = await agentRequest<Listed>(agent, 'POST', `/deployments/${one.id}/redeploy`);
    expect(redeployed.status).toBe(200);
    expect(redeployed.body.service_ids).not.toEqual(one.service_ids);
    expect((await list()).find((d) => d.id === one.id)?.service_ids).toEqual(redeployed.body.service_ids);
    expect((await agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${one.id}`)).body.status.services.map((s) => s.id)).toEqual(
      redeployed.body.service_ids,
    );

    expect((await agentRequest(agent, 'DELETE', `/deployments/${one.id}`)).status).toBe(204);
    expect((await list()).map((d) => d.id)).not.toContain(one.id);
    expect((await agentRequest(agent, 'GET', `/deployments/${one.id}`)).status).toBe(404);
  });

  test('a failed read is not kept: the next read goes to the database again', async () => {
    const other = await createTestDatabase('agent_reads_fail');
    const fresh = await startAgent({ env: { ADAPTER_URL: fake.url }, database: other });
    const admin = new Client({ connectionString: other.url });
    await admin.connect();
    try {
      expect(
        (
          await agentRequest(fresh, 'POST', '/deployments', {
            body: { template: { name: 'kept', images: [{ name: 'web', source: 'example/web' }] } },
          })
        ).status,
      ).toBe(200);
      await admin.query('alter table agent_deployments rename to agent_deployments_away');
      // The create above made the next read go to the database; the table is gone, so it fails.
      expect((await agentRequest(fresh, 'GET', '/deployments')).status).toBe(500);
      await admin.query('alter table agent_deployments_away rename to agent_deployments');
      const listed = await agentRequest<Listed[]>(fresh, 'GET', '/deployments');
      expect(listed.status).toBe(200);
      expect(listed.body.map((d) => d.name)).toEqual(['kept']);
    } finally {
      await admin.end();
      await fresh.close();
      await other.drop();
    }
  });
});

describe('one agent per database', () => {
  test('a second agent on the same database refuses to start; it starts once the first has stopped', async () => {
    const database = await createTestDatabase('agent_lock');
    const elsewhere = await createTestDatabase('agent_lock_other');
    const first = await startAgent({ database });
    try {
      await expect(startAgent({ database, dataDir: first.dataDir })).rejects.toThrow(
        'Another agent is using this database (DATABASE_URL): each agent needs a database of its own.',
      );
      // Another database on the same server is another lock.
      const neighbour = await startAgent({ database: elsewhere });
      await neighbour.close();

      await first.close();
      const second = await startAgent({ database });
      expect((await agentRequest(second, 'GET', '/deployments')).status).toBe(200);
      await second.close();
    } finally {
      await first.close();
      await database.drop();
      await elsewhere.drop();
    }
  });
});
