import { MikroORM, type MigrationObject, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
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
  const config: Options = {
    clientUrl: options.clientUrl,
    entities: options.entities,
    extensions: [Migrator],
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
      tableName: options.migrationsTable ?? 'mikro_orm_migrations',
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
    await migrateInTurn(options.clientUrl, options.migrationsTable ?? 'mikro_orm_migrations', () => orm.getMigrator().up());
  } catch (error) {
    await orm.close(true);
    throw error;
  }
  return orm;
}

/**
 * Replicas started together (or in a rolling upgrade) each apply the migrations they have not
 * seen; MikroORM's migrator takes no lock, so two ran the same one at once and all but one failed
 * to start. They take turns on a session advisory lock per migrations table, and the ones after
 * the first find nothing left to apply.
 */
async function migrateInTurn(url: string, table: string, migrate: () => Promise<unknown>): Promise<void> {
  const client = new Client({ connectionString: url, application_name: 'platform-migrations' });
  await client.connect();
  try {
    await client.query('select pg_advisory_lock(hashtext($1)::bigint)', [`platform migrations ${table}`]);
    await migrate();
  } finally {
    // Ending the session releases the lock.
    await client.end().catch(() => undefined);
  }
}
