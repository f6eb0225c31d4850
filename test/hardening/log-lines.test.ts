import { expect } from '@jest/globals';
import { Client } from 'pg';
import { Writable } from 'node:stream';
import { createLogger } from '../../src/logger';
import { JobQueue } from '../../src/outbound/queue';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

interface Line {
  level: number;
  msg: string;
  reason?: string;
  err?: Record<string, unknown>;
}

function capture(): { lines: Line[]; stream: Writable } {
  const lines: Line[] = [];
  const stream = new Writable({
    write(chunk: Buffer, _encoding, done) {
      for (const text of chunk.toString('utf8').split('\n')) if (text.trim()) lines.push(JSON.parse(text) as Line);
      done();
    },
  });
  return { lines, stream };
}

async function until(check: () => boolean, timeoutMs = 10_000): Promise<void> {
  for (const deadline = Date.now() + timeoutMs; !check();) {
    if (Date.now() > deadline) throw new Error('timed out');
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

describe('log lines of errors', () => {
  test("an error's line keeps its plain fields and drops the objects a library hung on it", () => {
    const { lines, stream } = capture();
    const log = createLogger('info', 'probe', stream);
    class Session {
      connectionParameters = { host: '127.0.0.1', database: 'postgres', port: 5432 };
      secretKey = 723823721;
    }
    const error = Object.assign(new Error('terminating connection due to administrator command'), {
      code: '57P01',
      severity: 'FATAL',
      detail: { table: 'apps', columns: ['id'] },
      client: new Session(),
      cause: new Error('the socket closed'),
    });
    log.warn({ err: error }, 'failed');
    const err = lines[0].err!;
    expect(err).toMatchObject({ type: 'Error', code: '57P01', severity: 'FATAL', detail: { table: 'apps', columns: ['id'] } });
    expect(err.message).toContain('the socket closed');
    expect(String(err.stack)).toContain('log-lines.test');
    expect(err).not.toHaveProperty('client');
    expect(JSON.stringify(lines[0])).not.toContain('secretKey');
  });

  test('an aggregate error keeps the errors it gathers', () => {
    const { lines, stream } = capture();
    createLogger('info', 'probe', stream).error({ err: new AggregateError([new Error('one'), new Error('two')], 'both') }, 'failed');
    const errors = lines[0].err!.aggregateErrors as { message: string }[];
    expect(errors.map((each) => each.message)).toEqual(['one', 'two']);
  });

  describe('the job queue', () => {
    let db: TestDatabase;
    let queue: JobQueue | undefined;
    beforeAll(async () => {
      db = await createTestDatabase('loglines');
    });
    afterAll(async () => {
      await queue?.stop();
      await db?.drop();
    });

    test('a session the database ends (Ctrl-C reaches the embedded server too) is one info line, not a warning with its client', async () => {
      const { lines, stream } = capture();
      queue = await JobQueue.start(db.url, createLogger('info', 'probe', stream), { rescueSeconds: 60 });
      await queue.boss.getQueueSize('event-delivery');
      const admin = new Client({ connectionString: db.url });
      await admin.connect();
      try {
        const ended = await admin.query(
          "select pg_terminate_backend(pid) from pg_stat_activity where application_name = 'platform-queue' and pid <> pg_backend_pid()",
        );
        expect(ended.rowCount).toBeGreaterThan(0);
      } finally {
        await admin.end();
      }
      await until(() => lines.some((line) => line.msg === 'job queue: a database session ended'));
      const ended = lines.find((line) => line.msg === 'job queue: a database session ended')!;
      expect(ended.level).toBe(30);
      expect(ended.reason).toMatch(/administrator command/);
      expect(lines.filter((line) => line.level >= 40)).toEqual([]);
      // The pool opens another session when asked.
      await expect(queue.boss.getQueueSize('event-delivery')).resolves.toBe(0);
    });
  });
});
