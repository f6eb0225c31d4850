import { p } from '@mikro-orm/core';

/** A time set when the row is made: now() for rows inserted by SQL, the process's clock for the ORM's. */
export const timestamp = () =>
  p
    .datetime()
    .defaultRaw('now()')
    .onCreate(() => new Date());

export const updatedTimestamp = () => timestamp().onUpdate(() => new Date());
