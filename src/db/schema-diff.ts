import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { Logger } from '../logger';
import { openOrm, type OrmOptions } from './orm';

/** What one database is built from: its entities, its committed migrations and their table. */
export type SchemaSource = Required<Pick<OrmOptions, 'entities' | 'migrations' | 'migrationsTable'>>;

/**
 * The SQL that would bring a database built by the committed migrations to what the entities
 * declare (MikroORM's schema comparator), as statements; empty when they agree. Runs in a scratch
 * database made on the server at `serverUrl` and dropped afterwards, so the answer depends only on
 * the committed migrations, never on the state of someone's data.
 */
export async function schemaDifference(serverUrl: string, schema: SchemaSource, log: Logger): Promise<string[]> {
  const name = `platform_schema_diff_${randomBytes(6).toString('hex')}`;
  await admin(serverUrl, `create database "${name}"`);
  const url = new URL(serverUrl);
  url.pathname = `/${name}`;
  try {
    const orm = await openOrm({ clientUrl: url.toString(), ...schema, log, poolSize: 1 });
    try {
      const sql = await orm.getSchemaGenerator().getUpdateSchemaSQL({ wrap: false, safe: false, dropTables: true });
      return splitStatements(sql).filter((statement) => !SQL_ONLY.test(statement));
    } finally {
      await orm.close(true);
    }
  } finally {
    await admin(serverUrl, `drop database if exists "${name}" with (force)`);
  }
}

/**
 * What the migrations build that the entities leave out on purpose: the templates' generated
 * full-text columns `search_vector` and `search_head` and their GIN indexes (migration 0010).
 * PostgreSQL computes them, only search.service.ts's SQL reads them, and declared on the entity
 * they would be loaded with every template and demanded by every `em.create`.
 */
const SQL_ONLY = /\bsearch_(vector|head)\b|templates_search_(vector|head)_idx/;

/** MikroORM's update SQL is one string of `;`-terminated statements, one per line or more. */
function splitStatements(sql: string): string[] {
  return sql
    .split(/;\s*\n/)
    .map((statement) => statement.trim().replace(/;$/, ''))
    .filter((statement) => statement !== '' && !/^set names /i.test(statement));
}

async function admin(serverUrl: string, sql: string): Promise<void> {
  const client = new Client({ connectionString: serverUrl });
  await client.connect();
  try {
    await client.query(sql);
  } finally {
    await client.end();
  }
}
