import { ApiToken } from './api-token.entity';
import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** The HttpOnly cookie stands for the API token it was exchanged for, so no token sits in browser storage. */
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
