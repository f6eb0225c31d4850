import { createHash } from 'node:crypto';
import type { MikroORM } from '@mikro-orm/postgresql';
import type { Events } from '../events/events';
import { SERVICE_STATE_CHANNEL, type ServiceStateEvent } from '../events/service-state-feed';
import { queryRows } from '../db/rows';
import type { Logger } from '../logger';
import type { DomainEventLog } from './domain-events';

// Every replica hears each NOTIFY and offers it; the key, a digest of what was seen, makes the database keep
// it once.
export class ServiceStateEvents {
  private started = false;
  private stopped = false;
  private subscriber: AsyncIterableIterator<ServiceStateEvent> | undefined;

  constructor(
    private readonly orm: MikroORM,
    private readonly events: Events,
    private readonly stream: DomainEventLog,
    private readonly log: Logger,
  ) {}

  /** Only while a subscription wants service states. */
  async startIfWanted(): Promise<void> {
    if (this.started || this.stopped) return;
    const [row] = await queryRows<{ wanted: boolean }>(
      this.orm.em.fork(),
      `select exists (select 1 from event_subscriptions where enabled and 'service.state_changed' = any(event_types)) as wanted`,
    );
    if (!row.wanted || this.started) return;
    this.started = true;
    this.events.serviceStates.ensureStarted();
    const subscriber = await this.events.bus.subscribe<ServiceStateEvent>(SERVICE_STATE_CHANNEL);
    this.subscriber = subscriber;
    void (async () => {
      for await (const event of subscriber) {
        const key = `service_state:${createHash('sha256').update(JSON.stringify(event)).digest('hex')}`;
        await this.stream.emit('service.state_changed', { ...event }, { dedupeKey: key, occurredAt: new Date(event.at) });
      }
    })().catch((error: unknown) => this.log.warn({ err: error }, 'service state events stopped'));
  }

  async close(): Promise<void> {
    this.stopped = true;
    await this.subscriber?.return?.();
  }
}
