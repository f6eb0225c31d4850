import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { updatedTimestamp } from '../db/timestamps';

/** A user's own settings, by user name: the e-mail a saved template's commit carries. */
export const UserProfile = defineEntity({
  name: 'UserProfile',
  tableName: 'user_profiles',
  properties: {
    username: p.text().primary(),
    email: p.text().nullable(),
    updatedAt: updatedTimestamp(),
  },
});
export type UserProfile = InferEntity<typeof UserProfile>;
