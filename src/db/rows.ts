import type { EntityManager } from '@mikro-orm/postgresql';

interface PgConnection {
  query(query: { text: string; values: readonly unknown[]; name?: string }): Promise<{ rows: unknown[] }>;
}

/** The part of knex's client (MikroORM's pool) used here. */
interface PoolClient {
  acquireConnection(): Promise<PgConnection>;
  releaseConnection(connection: PgConnection): Promise<void>;
}

/**
 * Skips MikroORM's query path (inlining, knex, logging), costly on hot reads; joins no transaction, rows as pg parses them.
 * Each text is a prepared statement on the session, so PostgreSQL parses and plans it once per connection, not per call.
 */
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
    query: async <T>(sql: string, params: readonly unknown[] = []) =>
      (await connection.query({ text: sql, values: params, name: statementName(sql) })).rows as T[],
    release: () => pool.releaseConnection(connection),
  };
}

/** The texts are the code's own, a few dozen; past that bound a text runs unprepared rather than grow every session. */
const MAX_PREPARED = 500;
const statementNames = new Map<string, string>();

function statementName(sql: string): string | undefined {
  let name = statementNames.get(sql);
  if (name === undefined && statementNames.size < MAX_PREPARED) statementNames.set(sql, (name = `platform_${statementNames.size}`));
  return name;
}
