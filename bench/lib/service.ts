import { freePort } from '../../src/net/free-port';
import { npmStart, startTs, waitForHealthz, type Child } from './processes';

export const BENCH_TOKEN = 'bench-admin-token-0123456789abcdef';

export interface RunningService {
  url: string;
  child: Child;
  /** ms from spawn to the first /healthz 200. */
  startMs: number;
  stop(): Promise<void>;
}

/**
 * The service as `npm start` runs it (node with its flags, the compiled dist/src/main.js), in its own process. Without a
 * databaseUrl it starts the embedded PostgreSQL of `dataDir`. Request logs are off (LOG_LEVEL
 * warn) because the floor server writes none either.
 */
export async function startService(options: {
  dataDir: string;
  databaseUrl?: string;
  logLevel?: string;
  /** A fixed port (a restart on the port its clients use); a free one otherwise. */
  port?: number;
  /** Replicas on one database share it; one service uses the key of its data dir. */
  secretKey?: string;
  /** More settings for this scenario. */
  env?: Record<string, string>;
}): Promise<RunningService> {
  const port = options.port ?? (await freePort());
  const env: Record<string, string | undefined> = {
    PORT: String(port),
    HOST: '127.0.0.1',
    DATA_DIR: options.dataDir,
    ADMIN_TOKEN: BENCH_TOKEN,
    LOG_LEVEL: options.logLevel ?? 'warn',
    NODE_ENV: 'production',
    // The unpaginated 100 × 3 list is estimated above the default cost limit; the bench asks
    // /graphql for exactly what the REST route runs, so the limit is raised, not the query cut.
    GRAPHQL_MAX_COST: '1000000',
    DATABASE_URL: options.databaseUrl,
    SECRET_KEY: options.secretKey,
    ...options.env,
  };
  const started = performance.now();
  const { nodeArgs, script } = npmStart();
  const child = startTs(script, env, { nodeArgs });
  const url = `http://127.0.0.1:${port}`;
  await waitForHealthz(url, child);
  return { url, child, startMs: performance.now() - started, stop: () => child.stop() };
}
