import { startTestPostgres } from './postgres';

/** One PostgreSQL server for the whole run; each test file makes its own database on it. */
export default async function globalSetup(): Promise<void> {
  const server = await startTestPostgres();
  process.env.TEST_DATABASE_URL = server.url;
  (globalThis as { __PG_STOP__?: () => Promise<void> }).__PG_STOP__ = server.stop;
}
