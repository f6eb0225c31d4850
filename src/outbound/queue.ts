import PgBoss from 'pg-boss';
import { inTurn } from '../db/orm';
import type { HeldConnection } from '../db/rows';
import { databaseUnavailable } from '../db/unavailable';
import type { Logger } from '../logger';
import { observeJobQueue } from '../observability/metrics';

export const DELIVERY_QUEUE = 'event-delivery';
export const HOOK_QUEUE = 'hook-action';

export interface QueueOptions {
  /** How often jobs in flight on a replica that died (past their expiry) are handed back. */
  rescueSeconds: number;
}

// In the service's own database, so a job is written in the transaction of the rows that cause it and
// neither exists without the other.
export class JobQueue {
  readonly boss: PgBoss;
  private readonly unobserve: () => void;

  private constructor(boss: PgBoss) {
    this.boss = boss;
    this.unobserve = observeJobQueue(() => Promise.all([DELIVERY_QUEUE, HOOK_QUEUE].map((name) => this.size(name))));
  }

  /** Waiting: created or to be retried; active: taken by a replica and not finished. */
  private async size(queue: string): Promise<{ queue: string; waiting: number; active: number }> {
    const [waiting, unfinished] = await Promise.all([
      this.boss.getQueueSize(queue, { before: 'active' }),
      this.boss.getQueueSize(queue, { before: 'completed' }),
    ]);
    return { queue, waiting, active: unfinished - waiting };
  }

  static async start(connectionString: string, log: Logger, options: QueueOptions): Promise<JobQueue> {
    const boss = new PgBoss({
      connectionString,
      application_name: 'platform-queue',
      max: 4,
      schema: 'pgboss',
      supervise: true,
      schedule: false,
      maintenanceIntervalSeconds: options.rescueSeconds,
      // Finished jobs stay a week (the delivery log is the service's own table).
      deleteAfterDays: 7,
    });
    boss.on('error', (error: Error) => {
      // Ctrl-C reaches the embedded PostgreSQL too, which ends every session as the service stops;
      // a lost session is no fault of the queue's, and its pool opens another when one is asked for.
      if (databaseUnavailable(error)) log.info({ reason: error.message }, 'job queue: a database session ended');
      else log.warn({ err: error }, 'job queue: error');
    });
    await boss.start();
    // Replicas starting together deadlocked making the same queue's partition: one at a time.
    await inTurn(connectionString, 'platform job queues', async () => {
      for (const name of [DELIVERY_QUEUE, HOOK_QUEUE]) {
        if (!(await boss.getQueue(name))) await boss.createQueue(name, { name, policy: 'standard' });
      }
    });
    return new JobQueue(boss);
  }

  insert(connection: HeldConnection, jobs: PgBoss.JobInsert[]): Promise<void> {
    if (jobs.length === 0) return Promise.resolve();
    return this.boss.insert(jobs, { db: { executeSql: async (text, values) => ({ rows: await connection.query(text, values) }) } });
  }

  async stop(): Promise<void> {
    this.unobserve();
    await this.boss.stop({ graceful: false, wait: true, close: true });
  }
}
