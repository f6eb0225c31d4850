import { ApiToken } from './api-token.entity';
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A web console's signed-in session: the HttpOnly cookie's value stands for the API token it was
 * exchanged for, so no token sits in browser storage. Only the value's SHA-256 digest is stored.
 */
export const ConsoleSession = defineEntity({
  name: 'ConsoleSession',
  tableName: 'console_sessions',
  indexes: [{ name: 'console_sessions_expires_at', properties: ['expiresAt'] }],
  properties: {
    digest: p.text().primary(),
    /** The token it was exchanged for (null for ADMIN_TOKEN): revoking the token ends its sessions. */
    token: () => p.manyToOne(ApiToken).nullable().deleteRule('cascade').updateRule('no action'),
    username: p.text(),
    email: p.text().nullable(),
    createdAt: p.datetime(),
    expiresAt: p.datetime(),
  },
});
export type ConsoleSession = InferEntity<typeof ConsoleSession>;
