import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamp } from '../db/timestamps';
import { DeploymentTarget } from '../targets/deployment-target.entity';

/** One domain event, once: `dedupeKey` makes the replicas that all saw it store it one time. */
export const DomainEvent = defineEntity({
  name: 'DomainEvent',
  tableName: 'domain_events',
  properties: {
    id: p.uuid().primary(),
    type: p.text(),
    occurredAt: p.datetime(),
    payload: p.json<Record<string, unknown>>().$type<Record<string, unknown>>(),
    dedupeKey: p.text().nullable().unique(),
    createdAt: timestamp(),
  },
});
export type DomainEvent = InferEntity<typeof DomainEvent>;

/** An admin's subscription of a URL to event types; disabled when the receiver answers 410. */
export const EventSubscription = defineEntity({
  name: 'EventSubscription',
  tableName: 'event_subscriptions',
  properties: {
    id: p.integer().primary(),
    url: p.text(),
    eventTypes: p.array<string>().$type<string[]>(),
    sealedSecret: p.text(),
    enabled: p.boolean().default(true),
    disabledReason: p.text().nullable(),
    createdAt: timestamp(),
  },
});
export type EventSubscription = InferEntity<typeof EventSubscription>;

export const EventDelivery = defineEntity({
  name: 'EventDelivery',
  tableName: 'event_deliveries',
  indexes: [{ name: 'event_deliveries_subscription_idx', properties: ['subscription', 'id'] }],
  properties: {
    id: p.integer().primary(),
    subscription: () => p.manyToOne(EventSubscription).deleteRule('cascade').updateRule('no action'),
    event: () => p.manyToOne(DomainEvent).deleteRule('cascade').updateRule('no action'),
    attempt: p.integer(),
    /** delivered, failed (retried), gave_up or gone (410: the subscription was disabled). */
    status: p.text(),
    responseCode: p.integer().nullable(),
    durationMs: p.integer().nullable(),
    responseExcerpt: p.text().nullable(),
    error: p.text().nullable(),
    at: timestamp(),
  },
});
export type EventDelivery = InferEntity<typeof EventDelivery>;

/** The last thing known of a target's agent, so that only a change is an event. */
export const TargetHealth = defineEntity({
  name: 'TargetHealth',
  tableName: 'target_health',
  properties: {
    target: () => p.oneToOne(DeploymentTarget).primary().deleteRule('cascade').updateRule('no action'),
    reachable: p.boolean(),
    error: p.text().nullable(),
    checkedAt: p.datetime(),
  },
});
export type TargetHealth = InferEntity<typeof TargetHealth>;
