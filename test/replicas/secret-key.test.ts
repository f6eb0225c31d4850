import { expect } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp, type App } from '../../src/app';
import { parseConfig } from '../../src/config';
import { entities } from '../../src/entities';
import { migrations } from '../../src/db/migrations/index';
import { openOrm } from '../../src/db/orm';
import { createLogger } from '../../src/logger';
import { ADMIN_TOKEN } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

const MISMATCH = /^SECRET_KEY is not the key the other replicas on this database use/;

/**
 * Replicas on one database must share SECRET_KEY. Before, a replica with another key started
 * and answered 500 for every target and registry another replica had stored (their sealed
 * credentials would not open); now it refuses to start and says why.
 */
describe('SECRET_KEY must be the same on every replica of a database', () => {
  let db: TestDatabase;
  const apps: App[] = [];
  const dirs: string[] = [];

  beforeEach(async () => {
    db = await createTestDatabase('secretkey');
  });
  afterEach(async () => {
    for (const app of apps.splice(0)) await app.close();
    await db.drop();
    for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
  });

  const start = async (env: Record<string, string>) => {
    const dataDir = mkdtempSync(path.join(os.tmpdir(), 'secret-key-replica-'));
    dirs.push(dataDir);
    const config = parseConfig({ DATABASE_URL: db.url, DATA_DIR: dataDir, ADMIN_TOKEN, LOG_LEVEL: 'silent', ...env });
    const app = await createApp(config, { log: createLogger('silent'), announce: () => undefined });
    apps.push(app);
    return app;
  };

  test('the same key: both start; another key: the second refuses, naming the setting', async () => {
    const key = 'k'.repeat(64);
    await start({ SECRET_KEY: key });
    await start({ SECRET_KEY: key });
    await expect(start({ SECRET_KEY: 'x'.repeat(64) })).rejects.toThrow(MISMATCH);
  });

  test('no SECRET_KEY: each replica would use the key of its own data dir, so the second refuses', async () => {
    await start({});
    await expect(start({})).rejects.toThrow(MISMATCH);
  });

  test('two replicas starting at once with different keys: exactly one of them starts', async () => {
    // Migrated first (two first starts would race on the migrations, not on the key).
    const orm = await openOrm({ clientUrl: db.url, entities, migrations, log: createLogger('silent') });
    await orm.close(true);
    const outcomes = await Promise.allSettled([start({ SECRET_KEY: 'a'.repeat(64) }), start({ SECRET_KEY: 'b'.repeat(64) })]);
    expect(
      outcomes.map((o) => (o.status === 'fulfilled' ? 'started' : String((o.reason as Error).message).replace(/:.*/s, ''))).sort(),
    ).toEqual(['SECRET_KEY is not the key the other replicas on this database use (what they sealed cannot be opened with it)', 'started']);
  });
});
