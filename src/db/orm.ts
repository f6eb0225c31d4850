import { MikroORM, type MigrationObject, type Options } from '@mikro-orm/postgresql';
import { Client } from 'pg';
import type { Logger } from '../logger';
import { observeDatabase } from '../observability/db-metrics';
import { PostgresNamingStrategy } from './naming';

export interface OrmOptions {
  clientUrl: string;
  entities: NonNullable<Options['entities']>;
  migrations: MigrationObject[];
  /** Table that records applied migrations: the service and the agent may share a server. */
  migrationsTable?: string;
  log: Logger;
  poolSize?: number;
}

/** Opens MikroORM on PostgreSQL and applies every pending committed migration. */
export async function openOrm(options: OrmOptions): Promise<MikroORM> {
  const table = options.migrationsTable ?? 'mikro_orm_migrations';
  return inTurn(options.clientUrl, `platform migrations ${table}`, async (session) => {
    // The migrator (and the migration files) load only when a migration is pending: a restart has none.
    const pending = await anyPending(session, table, options.migrations);
    const config: Options = {
      clientUrl: options.clientUrl,
      entities: options.entities,
      extensions: pending ? [(await import('@mikro-orm/migrations')).Migrator] : [],
      discovery: { warnWhenNoEntities: true },
      // Relations loaded through em.find in resolvers are batched per request (GraphQL N+1).
      dataloader: true,
      pool: { min: 0, max: options.poolSize ?? 10 },
      forceUtcTimezone: true,
      namingStrategy: PostgresNamingStrategy,
      // Written by raw SQL only (the installation's id, see migration 0002): no entity declares it.
      schemaGenerator: { skipTables: ['platform_instance'] },
      allowGlobalContext: false,
      migrations: {
        migrationsList: options.migrations,
        tableName: table,
        transactional: true,
        allOrNothing: true,
        snapshot: false,
      },
      logger: (message) => options.log.debug({ orm: message }),
    };
    const orm = await MikroORM.init(config);
    // Statement durations and the pool's connections, for /metrics.
    observeDatabase(orm.em.getConnection().getKnex());
    try {
      if (pending) await orm.getMigrator().up();
    } catch (error) {
      await orm.close(true);
      throw error;
    }
    return orm;
  });
}

/** Whether a committed migration is not in the table yet (or there is no table: a new database). */
async function anyPending(session: Client, table: string, migrations: MigrationObject[]): Promise<boolean> {
  const { rows } = await session.query<{ exists: boolean }>('select to_regclass($1) is not null as exists', [table]);
  if (!rows[0].exists) return true;
  const applied = new Set((await session.query<{ name: string }>(`select name from "${table}"`)).rows.map((r) => r.name));
  return migrations.some((m) => !applied.has(m.name));
}

/**
 * Replicas started together (or in a rolling upgrade) each make what they find missing (the
 * migrations they have not seen, the job queues); neither MikroORM's migrator nor pg-boss takes a
 * lock for it, so two made the same thing at once and all but one failed to start. They take
 * turns on a session advisory lock per `name`, and the ones after the first find nothing left.
 */
export async function inTurn<T>(url: string, name: string, work: (session: Client) => Promise<T>): Promise<T> {
  const client = new Client({ connectionString: url, application_name: 'platform-start' });
  // A session lost between queries (the database stopped) is an 'error' event, which unheard ends
  // the process; the next query fails with it instead.
  client.on('error', () => undefined);
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1)::bigint)', [name]);
    return await work(client);
  } finally {
    // Ending the session releases the lock.
    await client.end().catch(() => undefined);
  }
}
