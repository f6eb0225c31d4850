import type { EntityManager } from '@mikro-orm/postgresql';

interface PgConnection {
  query(sql: string, params: readonly unknown[]): Promise<{ rows: unknown[] }>;
}

/** The part of knex's client (MikroORM's pool) used here. */
interface PoolClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void>;
}

/** Skips MikroORM's query path (inlining, knex, logging), costly on hot reads; joins no transaction, rows as pg parses them. */
export function queryRows<T>(em: EntityManager, sql: string, params: readonly unknown[] = []): Promise<T[]> {
  return withConnection(em, (connection) => connection.query<T>(sql, params));
}

/** A connection of MikroORM's pool, held until released: statements on one session. */
export interface HeldConnection {
  query<T>(sql: string, params?: readonly unknown[]): Promise<T[]>;
  release(): Promise<void>;
}

/** `work` on one pooled connection, released however it ends. */
export async function withConnection<T>(em: EntityManager, work: (connection: HeldConnection) => Promise<T>): Promise<T> {
  const connection = await acquireConnection(em);
  try {
    return await work(connection);
  } finally {
    await connection.release();
  }
}

export async function acquireConnection(em: EntityManager): Promise<HeldConnection> {
  const pool = em.getConnection().getKnex().client as PoolClient;
  const connection = await pool.acquireConnection();
  return {
    query: async <T>(sql: string, params: readonly unknown[] = []) => (await connection.query(sql, params)).rows as T[],
    release: () => pool.releaseConnection(connection),
  };
}
