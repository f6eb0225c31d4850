import type { EntityManager } from '@mikro-orm/postgresql';

/** The part of a pooled node-postgres connection used here. */
interface PgConnection {
  query(sql: string, params: readonly unknown[]): Promise<{ rows: unknown[] }>;
}

/** The part of knex's client (MikroORM's pool) used here. */
interface PoolClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void>;
}

/**
 * The rows of one read-only statement with `$1…` parameters, run on a connection of MikroORM's
 * own pool without its query path: `connection.execute` inlines every parameter into the text
 * (formatQuery), builds a knex raw query and logs it, which was about a tenth of the CPU of
 * GET /templates/{id} (three statements per request: the token, the template, its images;
 * bench/RESULTS.md, scenario 1). For the hot read paths only: it joins no transaction of the
 * entity manager, and its rows are node-postgres's (jsonb parsed, timestamps as Dates).
 */
export async function queryRows<T>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  const connection = await acquireConnection(em);
  try {
    return await connection.query<T>(sql, params);
  } finally {
    await connection.release();
  }
}

/** A connection of MikroORM's pool, held until released: statements on one session. */
export interface HeldConnection {
  query<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  release(): Promise<void>;
}

export async function acquireConnection(em: EntityManager): Promise<HeldConnection> {
  const pool = em.getConnection().getKnex().client as PoolClient;
  const connection = await pool.acquireConnection();
  return {
    query: async <T>(sql: string, params: readonly unknown[] = []) => (await connection.query(sql, params)).rows as T[],
    release: () => pool.releaseConnection(connection),
  };
}
