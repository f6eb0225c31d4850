import { expect } from '@jest/globals';
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createApp, type App } from '../../src/app';
import { parseConfig } from '../../src/config';
import { createLogger } from '../../src/logger';
import { ADMIN_TOKEN } from '../helpers/app';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

/**
 * Replicas started together on a new (or just upgraded) database: each applies the migrations it
 * has not seen. They took no lock, so two applied the same migration at once and all but one
 * failed to start (a table or column "already exists"). They now take turns on an advisory lock.
 */
describe('replicas started at once on a database with pending migrations', () => {
  let db: TestDatabase;
  const apps: App[] = [];
  const dirs: string[] = [];
  afterAll(async () => {
    for (const app of apps) await app.close();
    await db?.drop();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('three at once all start, and the migrations are applied once', async () => {
    db = await createTestDatabase('firststart');
    const start = async () => {
      const dataDir = mkdtempSync(path.join(os.tmpdir(), 'first-start-'));
      dirs.push(dataDir);
      const config = parseConfig({ DATABASE_URL: db.url, DATA_DIR: dataDir, ADMIN_TOKEN, SECRET_KEY: 's'.repeat(64), LOG_LEVEL: 'silent' });
      const app = await createApp(config, { log: createLogger('silent'), announce: () => undefined });
      apps.push(app);
      return 'started';
    };
    const outcomes = await Promise.allSettled([start(), start(), start()]);
    expect(outcomes.map((o) => (o.status === 'fulfilled' ? o.value : (o.reason as Error).message))).toEqual([
      'started',
      'started',
      'started',
    ]);
    const applied: { name: string }[] = await apps[0].orm.em.getConnection().execute('select name from mikro_orm_migrations order by id');
    expect(applied.map((m) => m.name)).toEqual([...new Set(applied.map((m) => m.name))]);
  });
});
