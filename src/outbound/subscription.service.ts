import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { isNeverHost } from '../catalog/outbound-policy';
import type { SecretBox } from '../crypto/secret-box';
import { inTransaction } from '../db/held-transaction';
import { queryRows } from '../db/rows';
import { NotFoundError, ValidationError } from '../errors';
import type { DomainEventLog } from './domain-events';
import { EVENT_TYPE_NAMES, isEventType } from './event-types';
import { EventDelivery, EventSubscription } from './outbound.entity';

export interface SubscriptionInput {
  url?: string | null;
  eventTypes?: readonly string[] | null;
  enabled?: boolean | null;
}

/** Shown once: when the subscription is made or its secret rotated. */
export interface IssuedSubscription {
  subscription: EventSubscription;
  secret: string;
}

export interface DeliveryPage {
  before?: number;
  limit: number;
}

export class EventSubscriptionService {
  constructor(
    private readonly em: EntityManager,
    private readonly secrets: SecretBox,
    private readonly events: DomainEventLog,
  ) {}

  list(): Promise<EventSubscription[]> {
    return this.em.find(EventSubscription, {}, { orderBy: { id: 'asc' } });
  }

  async get(id: number): Promise<EventSubscription> {
    const row = await this.em.findOne(EventSubscription, { id });
    if (!row) throw NotFoundError.of('event subscription', id);
    return row;
  }

  async create(input: SubscriptionInput): Promise<IssuedSubscription> {
    const url = checkUrl(input.url);
    const eventTypes = checkTypes(input.eventTypes);
    const secret = newSecret();
    const subscription = this.em.create(EventSubscription, {
      url,
      eventTypes,
      sealedSecret: this.secrets.seal(secret),
      enabled: input.enabled ?? true,
      disabledReason: null,
    });
    await this.em.flush();
    return { subscription, secret };
  }

  /** Enabling again clears why it was disabled. */
  async update(id: number, input: SubscriptionInput): Promise<EventSubscription> {
    const row = await this.get(id);
    if (input.url != null) row.url = checkUrl(input.url);
    if (input.eventTypes != null) row.eventTypes = checkTypes(input.eventTypes);
    if (input.enabled != null) {
      row.enabled = input.enabled;
      if (input.enabled) row.disabledReason = null;
    }
    await this.em.flush();
    return row;
  }

  async rotateSecret(id: number): Promise<IssuedSubscription> {
    const subscription = await this.get(id);
    const secret = newSecret();
    subscription.sealedSecret = this.secrets.seal(secret);
    await this.em.flush();
    return { subscription, secret };
  }

  async delete(id: number): Promise<EventSubscription> {
    const row = await this.get(id);
    await this.em.remove(row).flush();
    return row;
  }

  deliveries(subscriptionId: number, page: DeliveryPage): Promise<EventDelivery[]> {
    return this.em.find(
      EventDelivery,
      { subscription: subscriptionId, ...(page.before !== undefined ? { id: { $lt: page.before } } : {}) },
      { orderBy: { id: 'desc' }, limit: page.limit, populate: ['event'] },
    );
  }

  async delivery(id: number): Promise<EventDelivery> {
    const row = await this.em.findOne(EventDelivery, { id }, { populate: ['event'] });
    if (!row) throw NotFoundError.of('event delivery', id);
    return row;
  }

  /** Only to an enabled subscription. */
  async resend(deliveryId: number): Promise<EventDelivery> {
    const delivery = await this.delivery(deliveryId);
    const subscription = await this.get(delivery.subscription.id);
    if (!subscription.enabled) {
      throw new ValidationError('the subscription is disabled: enable it before resending to it', ['enabled']);
    }
    await inTransaction(this.em, (connection) =>
      this.events.enqueue(connection, [{ subscriptionId: subscription.id, eventId: delivery.event.id }]),
    );
    this.events.wakeWorkers();
    return delivery;
  }

  /** Deliveries not yet succeeded or given up. */
  async pendingCount(subscriptionId: number): Promise<number> {
    const [row] = await queryRows<{ n: number }>(
      this.em,
      `select count(*)::int as n from pgboss.job where name = 'event-delivery' and state in ('created', 'retry', 'active') and (data ->> 'subscriptionId')::int = $1`,
      [subscriptionId],
    );
    return row.n;
  }
}

function newSecret(): string {
  return `whsec_${randomBytes(32).toString('base64url')}`;
}

function checkUrl(raw: string | null | undefined): string {
  const text = raw?.trim() ?? '';
  if (!text) throw new ValidationError('url is required', ['url']);
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    throw new ValidationError('url must be an absolute http(s) URL', ['url']);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw new ValidationError('url must be an http(s) URL', ['url']);
  if (url.username || url.password) throw new ValidationError('url must not carry credentials: the signature authenticates', ['url']);
  // Refused when given as well as at delivery time (a name may resolve there later).
  if (isNeverHost(url.hostname)) throw new ValidationError('url must not name a link-local or metadata address', ['url']);
  return url.toString();
}

function checkTypes(raw: readonly string[] | null | undefined): string[] {
  const types = [...new Set(raw ?? [])];
  if (types.length === 0) throw new ValidationError(`event_types needs at least one of ${EVENT_TYPE_NAMES.join(', ')}`, ['event_types']);
  const unknown = types.filter((t) => !isEventType(t));
  if (unknown.length) throw new ValidationError(`unknown event types: ${unknown.join(', ')}`, ['event_types']);
  return types;
}
