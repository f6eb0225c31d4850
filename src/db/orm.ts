import { MikroORM, type MigrationObject, type Options } from '@mikro-orm/postgresql';
import { Migrator } from '@mikro-orm/migrations';
import type { Logger } from '../logger';
import { observeDatabase } from '../observability/db-metrics';
import { PostgresNamingStrategy } from './naming';

export interface OrmOptions {
  clientUrl: string;
  entities: NonNullable<Options['entities']>;
  /** Committed migrations, in order; applied on open. */
  migrations: MigrationObject[];
  /** Table that records applied migrations: the service and the agent may share a server. */
  migrationsTable?: string;
  log: Logger;
  /** Maximum pooled connections. */
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
  await orm.getMigrator().up();
  return orm;
}
