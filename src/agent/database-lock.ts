import type { MikroORM } from '@mikro-orm/postgresql';
import { acquireConnection } from '../db/rows';

/** pg_advisory_lock's key for "an agent serves this database" ('plag'). */
const AGENT_LOCK_KEY = 0x706c6167;

export class DatabaseInUseError extends Error {}

/**
 * One agent per database, held for the agent's lifetime: its deployments are serialised and
 * its list is kept in memory by its own process (DeploymentService), which a second agent
 * writing the same rows would silently break. A session-level advisory lock on a connection of
 * the agent's pool: PostgreSQL drops it with the session, so a killed agent leaves no lock
 * behind. Advisory locks are per database, so agents may share one server.
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
