import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

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
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type Registry = InferEntity<typeof Registry>;
