import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import type { Logger } from '../logger';
import { openOrm, type OrmOptions } from './orm';

export type SchemaSource = Required<Pick<OrmOptions, 'entities' | 'migrations' | 'migrationsTable'>>;

/** SQL from the committed migrations' schema to the entities', computed in a scratch database so no one's data matters. */
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

// Generated full-text columns and their indexes (migration 0010), off the entity on purpose: declared, they
// would be loaded with every template and demanded by every `em.create`.
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
