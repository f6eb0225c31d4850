import type { EntityManager } from '@mikro-orm/postgresql';
import { acquireConnection, type HeldConnection } from './rows';

/**
 * Runs `work` in one transaction on a connection of MikroORM's pool, with `$1…` statements: for
 * code that writes rows and queue jobs (pg-boss's SQL) together, all or nothing.
 */
export async function inTransaction<T>(em: EntityManager, work: (connection: HeldConnection) => Promise<T>): Promise<T> {
  const connection = await acquireConnection(em);
  try {
    await connection.query('begin');
    try {
      const result = await work(connection);
      await connection.query('commit');
      return result;
    } catch (error) {
      await connection.query('rollback').catch(() => undefined);
      throw error;
    }
  } finally {
    await connection.release();
  }
}
