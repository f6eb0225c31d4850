import { expect } from '@jest/globals';
import { Client } from 'pg';
import { StartLock } from '../../src/apps/start-lock';
import { EventBus } from '../../src/events/event-bus';
import { createLogger } from '../../src/logger';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { until } from './clients';

const log = createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'start-lock-test');

/** A promise and the function that settles it: work that runs until the test lets it finish. */
function gate(): { opened: Promise<void>; open: () => void } {
  let open!: () => void;
  const opened = new Promise<void>((resolve) => (open = resolve));
  return { opened, open };
}

/**
 * App starts hold an advisory lock per app on the process's bus session: two StartLocks on two
 * buses of one real database stand for two replicas.
 */
describe('StartLock: one start of an app at a time, across replicas', () => {
  let db: TestDatabase;
  let busA: EventBus;
  let busB: EventBus;
  const a = new StartLock();
  const b = new StartLock();

  beforeAll(async () => {
    db = await createTestDatabase('startlock');
    busA = new EventBus(db.url, log, { reconnectMs: 50 });
    busB = new EventBus(db.url, log, { reconnectMs: 50 });
    await Promise.all([busA.start(), busB.start()]);
    a.use(busA);
    b.use(busB);
  });

  afterAll(async () => {
    await busA?.close();
    await busB?.close();
    await db?.drop();
  });

  test('a start in progress on one replica: the other may not take it over, and its own start waits', async () => {
    const running = gate();
    const order: string[] = [];
    const first = a.exclusive(1, async () => {
      order.push('a starts');
      await running.opened;
      order.push('a done');
    });
    await until(() => order.length === 1, "a's start");
    // The resumer's way in: only a free lock.
    expect(await b.tryExclusive(1, () => Promise.resolve(void order.push('b resumed')))).toBe(false);
    expect(await a.tryExclusive(1, () => Promise.resolve(void order.push('a resumed')))).toBe(false);
    // Another app is not held up.
    expect(await b.tryExclusive(2, () => Promise.resolve())).toBe(true);
    // A start of the same app on the other replica waits for the first to end.
    const second = b.exclusive(1, () => Promise.resolve(void order.push('b starts')));
    running.open();
    await Promise.all([first, second]);
    expect(order).toEqual(['a starts', 'a done', 'b starts']);
    expect(await b.tryExclusive(1, () => Promise.resolve(void order.push('b resumed')))).toBe(true);
  });

  test('a start inside a start of the same app (a resumed start runs the runner) does not wait for itself', async () => {
    const order: string[] = [];
    expect(await a.tryExclusive(3, () => a.exclusive(3, () => Promise.resolve(void order.push('inner'))))).toBe(true);
    expect(order).toEqual(['inner']);
  });

  test('a replica that dies with a start in progress releases its lock: the other takes it at once', async () => {
    const never = gate();
    void a.exclusive(4, () => never.opened);
    await until(async () => !(await b.tryExclusive(4, () => Promise.resolve())), "a's lock");
    // The session ends as a killed process's would: PostgreSQL drops its locks.
    const admin = new Client({ connectionString: db.url });
    await admin.connect();
    await admin.query(
      "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'platform-events' and pid <> pg_backend_pid() and pid in (select pid from pg_locks where locktype = 'advisory' and classid = 4294967295 and objid = 4)",
    );
    await admin.end();
    await until(() => b.tryExclusive(4, () => Promise.resolve()), "b's takeover", 20_000);
    never.open();
  });
});
