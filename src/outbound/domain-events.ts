import { randomUUID } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import { inTransaction } from '../db/held-transaction';
import type { HeldConnection } from '../db/rows';
import type { Logger } from '../logger';
import type { EventType } from './event-types';
import { DELIVERY_QUEUE, type JobQueue } from './queue';

export interface DeliveryJob {
  subscriptionId: number;
  eventId: string;
}

export interface DeliveryRetry {
  retryLimit: number;
  retryDelaySeconds: number;
  /** A delivery in flight longer than this is taken for lost (its replica died) and tried again. */
  expireInSeconds: number;
}

/** Stored once across replicas (`dedupeKey`), with its delivery jobs queued in the same transaction. */
export class DomainEventLog {
  private readonly wakers = new Set<() => void>();

  constructor(
    private readonly orm: MikroORM,
    private readonly queue: JobQueue,
    private readonly retry: DeliveryRetry,
    private readonly log: Logger,
  ) {}

  /** This process's worker, and through it the other replicas'. */
  onQueued(wake: () => void): () => void {
    this.wakers.add(wake);
    return () => this.wakers.delete(wake);
  }

  /** The number of subscriptions it went to: 0 for a repeat. */
  async emit(type: EventType, data: Record<string, unknown>, options: { dedupeKey?: string; occurredAt?: Date } = {}): Promise<number> {
    try {
      const queued = await inTransaction(this.orm.em.fork(), async (connection) => {
        const id = randomUUID();
        const inserted = await connection.query(
          'insert into domain_events (id, type, occurred_at, payload, dedupe_key) values ($1, $2, $3, $4, $5) on conflict (dedupe_key) do nothing returning id',
          [id, type, options.occurredAt ?? new Date(), JSON.stringify(data), options.dedupeKey ?? null],
        );
        if (inserted.length === 0) return 0;
        const subscriptions = await connection.query<{ id: number }>(
          'select id from event_subscriptions where enabled and $1 = any(event_types) order by id',
          [type],
        );
        await this.enqueue(
          connection,
          subscriptions.map((s) => ({ subscriptionId: s.id, eventId: id })),
        );
        return subscriptions.length;
      });
      if (queued > 0) for (const wake of this.wakers) wake();
      return queued;
    } catch (error) {
      // An event that cannot be stored is logged, never the failure of what caused it.
      this.log.error({ err: error, type }, 'events: could not store a domain event');
      return 0;
    }
  }

  /** Inside the caller's transaction. */
  enqueue(connection: HeldConnection, jobs: DeliveryJob[]): Promise<void> {
    return this.queue.insert(
      connection,
      jobs.map((data) => ({
        name: DELIVERY_QUEUE,
        data,
        retryLimit: this.retry.retryLimit,
        retryDelay: this.retry.retryDelaySeconds,
        retryBackoff: true,
        expireInSeconds: this.retry.expireInSeconds,
      })),
    );
  }

  wakeWorkers(): void {
    for (const wake of this.wakers) wake();
  }
}
