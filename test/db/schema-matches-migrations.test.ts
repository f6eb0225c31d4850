import { expect } from '@jest/globals';
import { execFile } from 'node:child_process';
import { copyFileSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { writeMigration } from '../../src/db/migration-create';
import { migrationsIn } from '../../src/db/migration-files';
import { migrations } from '../../src/db/migrations/index';
import { SCHEMAS } from '../../src/db/migration-create';
import { schemaDifference } from '../../src/db/schema-diff';
import { createLogger } from '../../src/logger';

const ROOT = path.join(__dirname, '..', '..');
const log = createLogger('silent');

function serverUrl(): string {
  const url = process.env.TEST_DATABASE_URL;
  if (!url) throw new Error('TEST_DATABASE_URL is not set: run the tests through jest');
  return url;
}

/**
 * The committed migrations are hand-written SQL and the entities are TypeScript: nothing but this
 * keeps them in step. A fresh database migrated by the committed migrations must be exactly what
 * the entities declare (MikroORM's schema comparator reports no statement to run); when it fails,
 * `npm run migration:create -- <name>` writes the missing migration.
 */
describe('the committed migrations build what the entities declare', () => {
  test.each(['service', 'agent'] as const)('%s: no difference', async (schema) => {
    expect(await schemaDifference(serverUrl(), SCHEMAS[schema], log)).toEqual([]);
  });
});

describe('npm run migration:create', () => {
  // Inside the checkout, so the generated file resolves @mikro-orm/migrations like the real ones.
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(__dirname, '.tmp-migrations-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  test("writes the difference as the next numbered migration, which the folder's list finds and which closes it", async () => {
    // The state of a checkout whose entities gained deployment targets before their migration.
    const source = path.join(ROOT, 'src/db/migrations');
    copyFileSync(path.join(source, '0001-catalog.ts'), path.join(dir, '0001-catalog.ts'));
    copyFileSync(path.join(source, '0002-apps.ts'), path.join(dir, '0002-apps.ts'));
    const drift = { ...SCHEMAS.service, migrations: migrations.slice(0, 2) };
    const statements = await schemaDifference(serverUrl(), drift, log);
    expect(statements).toEqual(expect.arrayContaining([expect.stringMatching(/^create table "deployment_targets"/)]));

    const file = writeMigration(dir, 'Deployment targets', statements);
    expect(path.basename(file)).toBe('0003-deployment-targets.ts');
    // The folder's files are its list: the new one is found with the others, in order.
    const found = migrationsIn(dir);
    expect(found.map((m) => m.name)).toEqual(['0001-catalog', '0002-apps', '0003-deployment-targets']);
    expect(await schemaDifference(serverUrl(), { ...SCHEMAS.service, migrations: found }, log)).toEqual([]);
  });

  test('a folder whose migrations a partial build left out is refused at start, not on the first query', () => {
    const built = mkdtempSync(path.join(__dirname, '.tmp-built-'));
    try {
      writeFileSync(path.join(built, 'index.js'), '');
      expect(() => migrationsIn(built)).toThrow(`no migrations in ${built}: the build is incomplete`);
    } finally {
      rmSync(built, { recursive: true, force: true });
    }
  });

  test('the script runs and says when there is nothing to write', async () => {
    const { stdout } = await promisify(execFile)(path.join(ROOT, 'node_modules/.bin/tsx'), ['src/db/migration-create.ts', 'probe'], {
      cwd: ROOT,
      env: { ...process.env, DATABASE_URL: serverUrl(), LOG_LEVEL: 'silent' },
    });
    expect(stdout.trim()).toBe('The committed migrations already build what the entities declare: nothing to write.');
  });
});
