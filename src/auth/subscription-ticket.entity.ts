import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A short-lived, single-use stand-in for a bearer token, for clients that cannot send headers
 * (a browser's EventSource, a WebSocket). Only its SHA-256 digest is stored; using it deletes it.
 */
export const SubscriptionTicket = defineEntity({
  name: 'SubscriptionTicket',
  tableName: 'subscription_tickets',
  properties: {
    digest: p.string().primary(),
    /** The token it was issued for (null for ADMIN_TOKEN): revoking the token voids its tickets. */
    tokenId: p.integer().nullable(),
    username: p.string(),
    email: p.string().nullable(),
    expiresAt: p.datetime(),
  },
});
export type SubscriptionTicket = InferEntity<typeof SubscriptionTicket>;
