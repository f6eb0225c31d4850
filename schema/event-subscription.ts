import { EVENT_TYPE_NAMES, EVENT_TYPES } from '../src/outbound/event-types';
import type { EventDelivery as DeliveryRow, EventSubscription as SubscriptionRow } from '../src/outbound/outbound.entity';
import type { IssuedSubscription } from '../src/outbound/subscription.service';
import { builder } from './builder';
import { databaseId, orNull } from './global-id';
import { PAGE } from './connection';

const EventTypeInfo = builder.objectRef<{ name: string; description: string }>('EventTypeInfo').implement({
  description: 'A kind of domain event a URL can subscribe to (docs/events.schema.json documents each payload)',
  fields: (t) => ({ name: t.exposeString('name'), description: t.exposeString('description') }),
});

const TYPES = `one or more of ${EVENT_TYPE_NAMES.join(', ')}`;

const EventDelivery = builder.objectRef<DeliveryRow>('EventDelivery').implement({
  description: 'One attempt to deliver an event to a subscription',
  fields: (t) => ({
    databaseId: t.exposeInt('id'),
    eventId: t.string({ resolve: (d) => d.event.id }),
    eventType: t.string({ resolve: (d) => d.event.type }),
    attempt: t.exposeInt('attempt'),
    status: t.exposeString('status', {
      description: 'delivered, failed (to be retried), gave_up (out of retries) or gone (410: the subscription was disabled)',
    }),
    responseCode: t.int({ nullable: true, resolve: (d) => d.responseCode ?? null }),
    durationMs: t.int({ nullable: true, resolve: (d) => d.durationMs ?? null }),
    responseExcerpt: t.string({ nullable: true, description: 'The first KB of the answer', resolve: (d) => d.responseExcerpt ?? null }),
    error: t.string({ nullable: true, description: 'Why there was no answer', resolve: (d) => d.error ?? null }),
    at: t.field({ type: 'DateTime', resolve: (d) => d.at }),
  }),
});

export const EventSubscription = builder
  .nodeRef<SubscriptionRow, number>('EventSubscription', {
    id: { resolve: (s) => s.id, parse: databaseId },
    loadOne: (id, ctx) => orNull(ctx.services.eventSubscriptions.get(id)),
  })
  .implement({
    description: 'A URL that receives signed events of the types it subscribed to',
    authScopes: { admin: true },
    fields: (t) => ({
      databaseId: t.exposeInt('id'),
      url: t.exposeString('url'),
      eventTypes: t.stringList({ resolve: (s) => s.eventTypes }),
      enabled: t.exposeBoolean('enabled'),
      disabledReason: t.string({ nullable: true, resolve: (s) => s.disabledReason ?? null }),
      createdAt: t.field({ type: 'DateTime', resolve: (s) => s.createdAt }),
      pending: t.int({
        description: 'Deliveries queued or waiting to be retried',
        resolve: (s, _args, ctx) => ctx.services.eventSubscriptions.pendingCount(s.id),
      }),
      deliveries: t.field({
        type: [EventDelivery],
        description: 'The delivery log, newest first',
        args: {
          last: t.arg.int({ defaultValue: PAGE.defaultSize }),
          before: t.arg.int({ description: 'Attempts older than this databaseId' }),
        },
        resolve: (s, { last, before }, ctx) =>
          ctx.services.eventSubscriptions.deliveries(s.id, {
            limit: Math.min(Math.max(last ?? PAGE.defaultSize, 1), PAGE.maxSize),
            before: before ?? undefined,
          }),
      }),
    }),
  });

const IssuedEventSubscription = builder.objectRef<IssuedSubscription>('IssuedEventSubscription').implement({
  description: 'A subscription with its signing secret: shown once, when it is made or the secret rotated',
  fields: (t) => ({
    subscription: t.field({ type: EventSubscription, resolve: (i) => i.subscription }),
    secret: t.exposeString('secret', { description: 'Signs every delivery (X-Platform-Signature); shown once' }),
  }),
});

const CreateEventSubscriptionInput = builder.inputType('CreateEventSubscriptionInput', {
  fields: (t) => ({
    url: t.string({ required: true }),
    eventTypes: t.stringList({ required: true, description: TYPES }),
    enabled: t.boolean(),
  }),
});
const UpdateEventSubscriptionInput = builder.inputType('UpdateEventSubscriptionInput', {
  fields: (t) => ({
    id: t.int({ required: true }),
    url: t.string(),
    eventTypes: t.stringList({ description: TYPES }),
    enabled: t.boolean({ description: 'true enables it again after a 410 disabled it' }),
  }),
});
const EventSubscriptionIdInput = builder.inputType('EventSubscriptionIdInput', { fields: (t) => ({ id: t.int({ required: true }) }) });
const EventDeliveryIdInput = builder.inputType('EventDeliveryIdInput', { fields: (t) => ({ id: t.int({ required: true }) }) });

builder.queryFields((t) => ({
  eventTypes: t.field({
    type: [EventTypeInfo],
    authScopes: { admin: true },
    resolve: () => EVENT_TYPE_NAMES.map((name) => ({ name, description: EVENT_TYPES[name] })),
  }),
  eventSubscriptions: t.field({
    type: [EventSubscription],
    authScopes: { admin: true },
    resolve: (_root, _args, ctx) => ctx.services.eventSubscriptions.list(),
  }),
  eventSubscription: t.field({
    type: EventSubscription,
    nullable: true,
    authScopes: { admin: true },
    args: { id: t.arg.int({ required: true }) },
    resolve: (_root, { id }, ctx) => ctx.services.eventSubscriptions.get(id),
  }),
}));

builder.mutationFields((t) => ({
  createEventSubscription: t.field({
    type: IssuedEventSubscription,
    errors: {},
    authScopes: { admin: true },
    args: { input: t.arg({ type: CreateEventSubscriptionInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.eventSubscriptions.create(input),
  }),
  updateEventSubscription: t.field({
    type: EventSubscription,
    errors: {},
    authScopes: { admin: true },
    args: { input: t.arg({ type: UpdateEventSubscriptionInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.eventSubscriptions.update(input.id, input),
  }),
  rotateEventSubscriptionSecret: t.field({
    type: IssuedEventSubscription,
    errors: {},
    authScopes: { admin: true },
    args: { input: t.arg({ type: EventSubscriptionIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.eventSubscriptions.rotateSecret(input.id),
  }),
  deleteEventSubscription: t.field({
    type: EventSubscription,
    errors: {},
    authScopes: { admin: true },
    args: { input: t.arg({ type: EventSubscriptionIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.eventSubscriptions.delete(input.id),
  }),
  resendEventDelivery: t.field({
    type: EventDelivery,
    errors: {},
    authScopes: { admin: true },
    description: 'Queues the event of this logged attempt again for its subscription (a new attempt appears in the log)',
    args: { input: t.arg({ type: EventDeliveryIdInput, required: true }) },
    resolve: (_root, { input }, ctx) => ctx.services.eventSubscriptions.resend(input.id),
  }),
}));
