import { setTimeout as sleep } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import { acquireConnection } from '../db/rows';
import { ConflictError } from '../errors';
import { describeOwner, type RevisionOwner } from './revision-store';

const RETRY_MS = 250;

/** The lock's key: one per owner, across every replica on the database. */
export const switchKey = (owner: RevisionOwner): string =>
  'appId' in owner ? `platform switch app ${owner.appId}` : `platform switch deployment ${owner.targetId}/${owner.deploymentId}`;

/**
 * One switch (redeploy, rollback, service edit) of an owner at a time: a session advisory lock on
 * a pooled connection held for the switch, which PostgreSQL releases if the process dies. A
 * caller that cannot wait gets a 409; one that can (a hook's job) waits up to `waitMs`.
 */
export async function withSwitchLock<T>(
  em: EntityManager,
  owner: RevisionOwner,
  work: () => Promise<T>,
  options: { waitMs?: number } = {},
): Promise<T> {
  const connection = await acquireConnection(em);
  try {
    const key = switchKey(owner);
    const until = Date.now() + (options.waitMs ?? 0);
    for (;;) {
      const [{ locked }] = await connection.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [
        key,
      ]);
      if (locked) break;
      if (Date.now() >= until) {
        throw new ConflictError(
          `${describeOwner(owner)} is being redeployed or rolled back by another request: try again once it is done`,
          ['id'],
        );
      }
      await sleep(RETRY_MS);
    }
    try {
      return await work();
    } finally {
      await connection.query('select pg_advisory_unlock(hashtextextended($1, 0))', [key]).catch(() => undefined);
    }
  } finally {
    await connection.release();
  }
}

/** Whether some process holds the owner's lock now (a switch is running there). */
export async function switchRunning(em: EntityManager, owner: RevisionOwner): Promise<boolean> {
  const connection = await acquireConnection(em);
  try {
    const key = switchKey(owner);
    const [{ locked }] = await connection.query<{ locked: boolean }>('select pg_try_advisory_lock(hashtextextended($1, 0)) as locked', [
      key,
    ]);
    if (locked) await connection.query('select pg_advisory_unlock(hashtextextended($1, 0))', [key]);
    return !locked;
  } finally {
    await connection.release();
  }
}
