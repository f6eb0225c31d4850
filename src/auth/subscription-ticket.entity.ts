import { ApiToken } from './api-token.entity';
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A single-use stand-in for a bearer token, for clients that cannot send headers; only its digest is stored. */
export const SubscriptionTicket = defineEntity({
  name: 'SubscriptionTicket',
  tableName: 'subscription_tickets',
  indexes: [{ name: 'subscription_tickets_expires_at', properties: ['expiresAt'] }],
  properties: {
    digest: p.text().primary(),
    /** The token it was issued for (null for ADMIN_TOKEN): revoking the token voids its tickets. */
    token: () => p.manyToOne(ApiToken).nullable().deleteRule('cascade').updateRule('no action'),
    username: p.text(),
    email: p.text().nullable(),
    expiresAt: p.datetime(),
  },
});
export type SubscriptionTicket = InferEntity<typeof SubscriptionTicket>;
