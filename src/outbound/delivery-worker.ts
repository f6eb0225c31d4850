import type { MikroORM } from '@mikro-orm/postgresql';
import type PgBoss from 'pg-boss';
import type { OutboundPolicy } from '../catalog/outbound-policy';
import type { SecretBox } from '../crypto/secret-box';
import { inTransaction } from '../db/held-transaction';
import { queryRows, type HeldConnection } from '../db/rows';
import type { Logger } from '../logger';
import { webhookDeliveries } from '../observability/metrics';
import type { DeliveryJob } from './domain-events';
import { DELIVERY_QUEUE, type JobQueue } from './queue';
import { sendWebhook, signature, type SendResult } from './webhook-sender';

export interface DeliveryWorkerOptions {
  concurrency: number;
  timeoutMs: number;
  /** Sleep between fetches when nothing woke the worker. */
  pollMs?: number;
}

interface Loaded {
  url: string;
  sealed_secret: string;
  enabled: boolean;
  type: string;
  occurred_at: Date | string;
  payload: Record<string, unknown>;
  attempts: number;
}

// pg-boss's SKIP LOCKED hands each job to one replica, and retries a failure with backoff and jitter. The
// attempt's log row and the job's outcome are written in one transaction. Other replicas wake it over NOTIFY.
export class DeliveryWorker {
  private running = 0;
  private woken = false;
  private sleeper: (() => void) | undefined;
  private stopped = false;
  private loop: Promise<void> | undefined;
  private readonly inFlight = new Set<Promise<void>>();

  constructor(
    private readonly orm: MikroORM,
    private readonly queue: JobQueue,
    private readonly secrets: SecretBox,
    private readonly policy: OutboundPolicy,
    private readonly log: Logger,
    private readonly options: DeliveryWorkerOptions,
  ) {}

  start(): void {
    this.loop ??= this.run();
  }

  wake(): void {
    this.woken = true;
    const sleeper = this.sleeper;
    this.sleeper = undefined;
    sleeper?.();
  }

  /** Deliveries in flight finish (or, killed, are rescued after their expiry). */
  async stop(): Promise<void> {
    this.stopped = true;
    this.wake();
    await this.loop;
    await Promise.all([...this.inFlight]);
  }

  private async run(): Promise<void> {
    while (!this.stopped) {
      this.woken = false;
      const free = this.options.concurrency - this.running;
      let fetched = 0;
      if (free > 0) {
        try {
          const jobs = await this.queue.boss.fetch<DeliveryJob>(DELIVERY_QUEUE, { batchSize: free, includeMetadata: true });
          fetched = jobs.length;
          for (const job of jobs) this.track(job);
        } catch (error) {
          if (!this.stopped) this.log.warn({ err: error }, 'deliveries: could not fetch jobs');
        }
      }
      if (this.stopped) break;
      if (fetched > 0 && fetched === free) continue;
      if (!this.woken) {
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, this.options.pollMs ?? 1000);
          this.sleeper = () => {
            clearTimeout(timer);
            resolve();
          };
        });
      }
    }
  }

  private track(job: PgBoss.JobWithMetadata<DeliveryJob>): void {
    this.running++;
    const work = this.deliver(job)
      .catch((error: unknown) => this.log.error({ err: error, job: job.id }, 'deliveries: a delivery failed unexpectedly'))
      .finally(() => {
        this.running--;
        this.inFlight.delete(work);
        this.wake();
      });
    this.inFlight.add(work);
  }

  private async deliver(job: PgBoss.JobWithMetadata<DeliveryJob>): Promise<void> {
    const { subscriptionId, eventId } = job.data;
    const [loaded] = await queryRows<Loaded>(
      this.orm.em.fork(),
      `select s.url, s.sealed_secret, s.enabled, e.type, e.occurred_at, e.payload,
         (select count(*)::int from event_deliveries d where d.subscription_id = s.id and d.event_id = e.id) as attempts
       from event_subscriptions s, domain_events e where s.id = $1 and e.id = $2`,
      [subscriptionId, eventId],
    );
    // A subscription deleted or disabled meanwhile: nothing to send.
    if (!loaded || !loaded.enabled) return void (await this.queue.boss.complete(DELIVERY_QUEUE, job.id));
    const body = JSON.stringify({
      id: eventId,
      type: loaded.type,
      occurredAt: new Date(loaded.occurred_at).toISOString(),
      data: loaded.payload,
    });
    const timestamp = String(Math.floor(Date.now() / 1000));
    const result = await sendWebhook(
      loaded.url,
      body,
      {
        'content-type': 'application/json',
        'user-agent': 'platform-webhooks/1',
        'x-platform-event': loaded.type,
        'x-platform-delivery': eventId,
        'x-platform-timestamp': timestamp,
        'x-platform-signature': signature(this.secrets.open(loaded.sealed_secret), timestamp, body),
      },
      this.policy,
      this.options.timeoutMs,
    );
    const ok = result.status !== null && result.status >= 200 && result.status < 300;
    const gone = result.status === 410;
    const lastTry = job.retryCount >= job.retryLimit;
    const status = ok ? 'delivered' : gone ? 'gone' : lastTry ? 'gave_up' : 'failed';
    webhookDeliveries.observe({ outcome: status }, result.durationMs / 1000);
    await inTransaction(this.orm.em.fork(), async (connection) => {
      await record(connection, subscriptionId, eventId, loaded.attempts + 1, status, result);
      const db = { db: { executeSql: async (text: string, values: unknown[]) => ({ rows: await connection.query(text, values) }) } };
      if (gone) {
        await connection.query(`update event_subscriptions set enabled = false, disabled_reason = $2 where id = $1`, [
          subscriptionId,
          `the receiver answered 410 Gone at ${new Date().toISOString()}`,
        ]);
      }
      if (ok || gone) await this.queue.boss.complete(DELIVERY_QUEUE, job.id, {}, db);
      else await this.queue.boss.fail(DELIVERY_QUEUE, job.id, { message: result.error ?? `HTTP ${result.status}` }, db);
    });
  }
}

function record(
  connection: HeldConnection,
  subscriptionId: number,
  eventId: string,
  attempt: number,
  status: string,
  result: SendResult,
): Promise<unknown> {
  return connection.query(
    `insert into event_deliveries (subscription_id, event_id, attempt, status, response_code, duration_ms, response_excerpt, error)
     values ($1, $2, $3, $4, $5, $6, $7, $8)`,
    [subscriptionId, eventId, attempt, status, result.status, result.durationMs, result.excerpt, result.error],
  );
}
