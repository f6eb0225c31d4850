import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { ApiToken } from '../auth/api-token.entity';
import { timestamp } from '../db/timestamps';

/** INSERT only: a trigger computes the hashes, and UPDATE and DELETE are refused (migration 0014). */
export const AuditEvent = defineEntity({
  name: 'AuditEvent',
  tableName: 'audit_events',
  indexes: [{ name: 'audit_events_at_idx', properties: ['at'] }],
  properties: {
    id: p.integer().primary(),
    at: timestamp(),
    /** token, admin-token, legacy-ui, webhook or system. */
    actorKind: p.text(),
    actorId: p.text().nullable(),
    actorName: p.text().nullable(),
    /** rest, graphql, console, legacy-ui, webhook or system. */
    door: p.text(),
    operation: p.text(),
    objectType: p.text().nullable(),
    objectId: p.text().nullable(),
    input: p.json<Record<string, unknown>>().$type<Record<string, unknown>>().defaultRaw(`'{}'`),
    /** ok, or the error code. */
    outcome: p.text(),
    clientAddress: p.text().nullable(),
    userAgent: p.text().nullable(),
    prevHash: p.text(),
    hash: p.text(),
  },
});
export type AuditEvent = InferEntity<typeof AuditEvent>;

/** The hash of the last row a pruning removed is where the chain now starts. */
export const AuditPrune = defineEntity({
  name: 'AuditPrune',
  tableName: 'audit_prunes',
  properties: {
    id: p.integer().primary(),
    throughId: p.integer(),
    lastHash: p.text(),
    at: timestamp(),
  },
});
export type AuditPrune = InferEntity<typeof AuditPrune>;

/** Makes a token's first use an audit record once, across replicas. */
export const ApiTokenUse = defineEntity({
  name: 'ApiTokenUse',
  tableName: 'api_token_uses',
  properties: {
    token: () => p.oneToOne(ApiToken).primary().deleteRule('cascade').updateRule('no action'),
    firstUsedAt: timestamp(),
  },
});
export type ApiTokenUse = InferEntity<typeof ApiTokenUse>;
