import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/** A user's own settings, by user name: the e-mail a saved template's commit carries. */
export const UserProfile = defineEntity({
  name: 'UserProfile',
  tableName: 'user_profiles',
  properties: {
    username: p.text().primary(),
    email: p.text().nullable(),
    updatedAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type UserProfile = InferEntity<typeof UserProfile>;
