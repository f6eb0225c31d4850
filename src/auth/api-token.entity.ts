import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamp } from '../db/timestamps';

export const SCOPES = ['read', 'write', 'deploy', 'admin'] as const;
export type Scope = (typeof SCOPES)[number];

/** A bearer token. Only its SHA-256 digest is stored: the token itself is shown once. */
export const ApiToken = defineEntity({
  name: 'ApiToken',
  tableName: 'api_tokens',
  properties: {
    id: p.integer().primary(),
    name: p.text(),
    username: p.text(),
    email: p.text().nullable(),
    digest: p.text().unique(),
    scopes: p.array<Scope>().$type<Scope[]>(),
    createdAt: timestamp(),
    revokedAt: p.datetime().nullable(),
  },
});
export type ApiToken = InferEntity<typeof ApiToken>;
