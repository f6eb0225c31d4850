import type { EntityManager } from '@mikro-orm/postgresql';
import { acquireConnection, type HeldConnection } from './rows';

/** One transaction on a pooled connection, for code that writes rows and pg-boss's queue jobs all or nothing. */
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
