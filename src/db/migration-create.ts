import { readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { parseConfig } from '../config';
import { createLogger } from '../logger';
import { runningEmbeddedUrl, startEmbeddedPostgres } from './embedded';
import { AgentDeployment } from '../agent/deployment.entity';
import { agentMigrations } from '../agent/migrations/index';
import { entities } from '../entities';
import { migrations } from './migrations/index';
import { schemaDifference, type SchemaSource } from './schema-diff';

/** The two databases this package migrates: the main service's and the agent's. */
export const SCHEMAS = {
  service: { entities, migrations, migrationsTable: 'mikro_orm_migrations' },
  agent: { entities: [AgentDeployment], migrations: agentMigrations, migrationsTable: 'agent_migrations' },
} satisfies Record<string, SchemaSource>;

const USAGE = `usage: npm run migration:create -- <name> [--agent] [--blank]

Builds a scratch database from the committed migrations, compares it with the entities, and writes
the difference as src/db/migrations/NNNN-<name>.ts (--agent: src/agent/migrations/), which that
folder's index finds. Review the SQL before committing it. --blank writes an empty migration
(data changes). Uses DATABASE_URL, or the embedded PostgreSQL of DATA_DIR.`;

const DIRS = { service: path.join(__dirname, 'migrations'), agent: path.join(__dirname, '..', 'agent', 'migrations') };

async function main(argv: string[]): Promise<void> {
  const name = argv.find((arg) => !arg.startsWith('-'));
  if (!name || argv.includes('--help')) return void console.log(USAGE);
  const which = argv.includes('--agent') ? 'agent' : 'service';
  const config = parseConfig();
  const log = createLogger('warn', 'migration');
  let url = config.databaseUrl ?? (await runningEmbeddedUrl(config.dataDir));
  const embedded = url ? undefined : await startEmbeddedPostgres(config.dataDir, log);
  url ??= embedded!.url;
  try {
    const statements = argv.includes('--blank') ? [] : await schemaDifference(url, SCHEMAS[which], log);
    if (statements.length === 0 && !argv.includes('--blank')) {
      console.log('The committed migrations already build what the entities declare: nothing to write.');
      return;
    }
    const file = writeMigration(DIRS[which], name, statements);
    console.log(`wrote ${path.relative(process.cwd(), file)} (${statements.length} statements) and registered it; review the SQL`);
  } finally {
    await embedded?.stop();
  }
}

/** Writes `<dir>/NNNN-<name>.ts`, numbered one above the highest there, and returns its path. */
export function writeMigration(dir: string, name: string, statements: string[]): string {
  const slug = name
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, '-')
    .replace(/^-|-$/g, '');
  if (!slug) throw new Error(`"${name}" makes no file name`);
  const numbers = readdirSync(dir)
    .map((file) => /^(\d{4})-.*\.ts$/.exec(file)?.[1])
    .filter((n) => n !== undefined)
    .map(Number);
  const number = String(Math.max(0, ...numbers) + 1).padStart(4, '0');
  const id = `${number}-${slug}`;
  const className = `Migration${number}${slug
    .split('-')
    .map((word) => word.charAt(0).toUpperCase() + word.slice(1))
    .join('')}`;
  const body = statements.map((sql) => `    this.addSql(${JSON.stringify(sql)});`).join('\n');
  const file = path.join(dir, `${id}.ts`);
  writeFileSync(
    file,
    `import { Migration } from '@mikro-orm/migrations';\n\n/** Written by npm run migration:create; TODO: say why. */\n` +
      `export class ${className} extends Migration {\n  override async up(): Promise<void> {\n${body}\n  }\n}\n`,
  );
  return file;
}

if (require.main === module) {
  main(process.argv.slice(2)).catch((error: unknown) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
