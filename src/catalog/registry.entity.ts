import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamp, updatedTimestamp } from '../db/timestamps';

/** An image registry searched alongside the templates. Credentials are stored encrypted. */
export const Registry = defineEntity({
  name: 'Registry',
  tableName: 'registries',
  properties: {
    id: p.integer().primary(),
    name: p.text(),
    endpointUrl: p.text(),
    enabled: p.boolean().default(true),
    username: p.text().nullable(),
    /** AES-GCM sealed JSON `{password?, token?}` (src/crypto/secret-box.ts). */
    sealedSecret: p.text().nullable(),
    createdAt: timestamp(),
    updatedAt: updatedTimestamp(),
  },
});
export type Registry = InferEntity<typeof Registry>;
