import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { startEmbeddedPostgres } from '../../src/db/embedded';

/** DATABASE_URL when given (any PostgreSQL server), else a throwaway embedded server. */
export async function startTestPostgres(): Promise<{ url: string; stop: () => Promise<void> }> {
  if (process.env.DATABASE_URL) return { url: process.env.DATABASE_URL, stop: () => Promise.resolve() };
  const dir = await mkdtemp(path.join(os.tmpdir(), 'platform-test-pg-'));
  const quiet = { info: () => undefined, warn: () => undefined };
  const server = await startEmbeddedPostgres(dir, quiet);
  return {
    url: server.url,
    async stop() {
      await server.stop();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
