import { jest } from '@jest/globals';
import { Client } from 'pg';
import { EventBus } from '../../src/events/event-bus';
import { PayloadTooLargeError } from '../../src/errors';
import { createLogger } from '../../src/logger';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { until } from './clients';

const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'bus-test');

/** The bus on its own: two of them on one real database stand for two replicas. */
describe('EventBus (LISTEN/NOTIFY)', () => {
  let db: TestDatabase;
  let a: EventBus;
  let b: EventBus;

  beforeAll(async () => {
    db = await createTestDatabase('bus');
    a = new EventBus(db.url, log, { reconnectMs: 50 });
    b = new EventBus(db.url, log, { reconnectMs: 50 });
    await Promise.all([a.start(), b.start()]);
  });

  afterAll(async () => {
    await a?.close();
    await b?.close();
    await db?.drop();
  });

  test('an event published on one bus reaches the subscribers of both, once each and in order', async () => {
    const onA = await a.subscribe<{ n: number }>('test_order');
    const onB = await b.subscribe<{ n: number }>('test_order');
    for (let n = 1; n <= 3; n++) await a.publish('test_order', { n });
    for (const subscriber of [onA, onB]) {
      expect([(await subscriber.next()).value, (await subscriber.next()).value, (await subscriber.next()).value]).toEqual([
        { n: 1 },
        { n: 2 },
        { n: 3 },
      ]);
    }
    await onA.return();
    await onB.return();
    expect(a.subscriberCount('test_order')).toBe(0);
    expect(b.subscriberCount('test_order')).toBe(0);
  });

  test('events published at once go to the session one statement at a time, in order', async () => {
    // pg queues a statement sent while one runs, but that is deprecated (gone in pg 9): none may be.
    type Session = { _activeQuery: unknown; _queryQueue: unknown[] };
    let overlapping = 0;
    const sessions = Client.prototype as unknown as { query: (this: Client, ...args: unknown[]) => unknown };
    const original = sessions.query;
    const query = jest.spyOn(sessions, 'query').mockImplementation(function (this: Client, ...args: unknown[]) {
      const session = this as unknown as Session;
      if (session._activeQuery || session._queryQueue.length > 0) overlapping++;
      return original.apply(this, args);
    });
    try {
      const burst = await b.subscribe<{ n: number }>('test_burst');
      await Promise.all(Array.from({ length: 20 }, (_, n) => a.publish('test_burst', { n })));
      const got: unknown[] = [];
      for (let i = 0; i < 20; i++) got.push((await burst.next()).value);
      await burst.return();
      expect(got).toEqual(Array.from({ length: 20 }, (_, n) => ({ n })));
      expect(overlapping).toBe(0);
    } finally {
      query.mockRestore();
    }
  });

  test('map filters and transforms as the subscriber reads; return() ends a pending read', async () => {
    const evens = await b.subscribe<{ n: number }, number>('test_map', (e) => (e.n % 2 === 0 ? e.n * 10 : undefined));
    for (const n of [1, 2, 3, 4]) await a.publish('test_map', { n });
    expect((await evens.next()).value).toBe(20);
    expect((await evens.next()).value).toBe(40);
    const pending = evens.next();
    await evens.return();
    await expect(pending).resolves.toEqual({ value: undefined, done: true });
  });

  test('a payload NOTIFY cannot carry is refused before it is sent', async () => {
    await expect(a.publish('test_big', { blob: 'x'.repeat(8000) })).rejects.toBeInstanceOf(PayloadTooLargeError);
    await expect(a.publish('bad channel; drop table x', {})).rejects.toThrow('not a channel name');
  });

  test('an advisory lock is held by one bus at a time and released when its holder unlocks', async () => {
    expect(await a.tryLock([7, 8])).toBe(true);
    expect(await b.tryLock([7, 8])).toBe(false);
    expect(a.holds([7, 8])).toBe(true);
    await a.unlock([7, 8]);
    expect(await b.tryLock([7, 8])).toBe(true);
    await b.unlock([7, 8]);
  });

  test('a lost connection is re-opened: locks are reported lost, LISTEN is back, events flow again', async () => {
    const subscriber = await b.subscribe<{ n: number }>('test_reconnect');
    expect(await b.tryLock([9, 9])).toBe(true);
    const lost = jest.fn();
    const forget = b.onLocksLost(lost);
    const admin = new Client({ connectionString: db.url });
    await admin.connect();
    try {
      await admin.query(
        "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'platform-events' and pid <> pg_backend_pid() and pid in (select pid from pg_locks where locktype = 'advisory' and classid = 9 and objid = 9)",
      );
    } finally {
      await admin.end();
    }
    await until(() => lost.mock.calls.length === 1, 'the lock loss');
    expect(b.holds([9, 9])).toBe(false);
    await until(() => b.connected, 'the reconnection');
    await b.whenListening('test_reconnect');
    // The lock is free again: the terminated session took it along.
    expect(await a.tryLock([9, 9])).toBe(true);
    await a.unlock([9, 9]);
    await a.publish('test_reconnect', { n: 1 });
    expect((await subscriber.next()).value).toEqual({ n: 1 });
    forget();
    await subscriber.return();
  });

  test('close ends every subscriber: queued events are still read, then the stream is done', async () => {
    const other = new EventBus(db.url, log);
    await other.start();
    const subscriber = await other.subscribe<{ n: number }>('test_close');
    await a.publish('test_close', { n: 1 });
    const first = await subscriber.next();
    expect(first.value).toEqual({ n: 1 });
    await other.close();
    await expect(subscriber.next()).resolves.toEqual({ value: undefined, done: true });
    expect(other.connected).toBe(false);
  });
});
