import type { MikroORM } from '@mikro-orm/postgresql';
import { acquireConnection } from '../db/rows';

/** pg_advisory_lock's key for "an agent serves this database" ('plag'). */
const AGENT_LOCK_KEY = 0x706c6167;

export class DatabaseInUseError extends Error {}

/**
 * One agent per database: a second one writing the same rows would silently break the first's in-memory list.
 * Session-level, so PostgreSQL drops it with a killed agent; per database, so agents may share a server.
 */
export async function lockAgentDatabase(orm: MikroORM): Promise<{ release(): Promise<void> }> {
  const connection = await acquireConnection(orm.em);
  try {
    const [{ locked }] = await connection.query<{ locked: boolean }>('select pg_try_advisory_lock($1) as locked', [AGENT_LOCK_KEY]);
    if (!locked) {
      throw new DatabaseInUseError(
        'Another agent is using this database (DATABASE_URL): each agent needs a database of its own. Stop the other agent, or give this one its own database.',
      );
    }
  } catch (error) {
    await connection.release();
    throw error;
  }
  return {
    async release() {
      await connection.query('select pg_advisory_unlock($1)', [AGENT_LOCK_KEY]).catch(() => undefined);
      await connection.release();
    },
  };
}
