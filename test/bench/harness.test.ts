import { expect } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { throughput } from '../../bench/lib/load';
import { startTs, stopAll, waitForHealthz } from '../../bench/lib/processes';
import { printTable, writeResults } from '../../bench/lib/report';
import { issueReadToken, migrate, seedTemplates } from '../../bench/lib/seed';
import type { ScenarioResult } from '../../bench/lib/types';
import { freePort } from '../../src/net/free-port';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

/**
 * The benchmark (npm run bench) is not part of npm test; this runs a tiny version of its
 * plumbing so it cannot rot unnoticed: seeding through the domain service, the floor server in
 * its own process, one second of autocannon, and the results.json shape.
 */
describe('bench harness plumbing', () => {
  let db: TestDatabase;
  let dir: string;

  beforeAll(async () => {
    db = await createTestDatabase('bench');
    dir = mkdtempSync(path.join(tmpdir(), 'bench-test-'));
  });

  afterAll(async () => {
    await stopAll();
    await db?.drop();
    rmSync(dir, { recursive: true, force: true });
  });

  test('the floor server answers the seeded templates under load, and results are written in shape', async () => {
    const orm = await migrate(db.url);
    const ids = await seedTemplates(orm, 3, 2);
    const auth = { authorization: `Bearer ${await issueReadToken(orm)}` };
    await orm.close(true);
    const port = await freePort();
    const floor = startTs('bench/lib/floor-server.ts', { DATABASE_URL: db.url, PORT: String(port) });
    const url = `http://127.0.0.1:${port}`;
    await waitForHealthz(url, floor);

    const denied = await request(`${url}/templates/${ids[1]}`);
    await denied.body.dump();
    expect(denied.statusCode).toBe(401);
    const one = await request(`${url}/templates/${ids[1]}`, { headers: auth });
    expect(one.statusCode).toBe(200);
    expect(await one.body.json()).toEqual(
      expect.objectContaining({
        id: ids[1],
        name: 'Template 1',
        image_count: 2,
        created_at: expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/),
        images: [
          expect.objectContaining({ name: 'web', links: [{ service: 'db', alias: 'database' }] }),
          expect.objectContaining({ name: 'db' }),
        ],
      }),
    );

    const load = await throughput({ url: `${url}/templates`, headers: auth }, { duration: 1, connections: 2 });
    expect(load.errors).toBe(0);
    expect(load.rps).toBeGreaterThan(0);
    await floor.stop();

    const result: ScenarioResult = {
      scenario: 1,
      name: 'floor smoke',
      figures: { rps: load.rps, p99Ms: load.p99 },
      baseline: { rps: load.rps, p99Ms: load.p99 },
      ratio: 1,
      target: 'ratio ≥ 1',
      met: true,
    };
    const file = path.join(dir, 'results.json');
    writeResults(file, [result]);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual([
      {
        scenario: 1,
        name: 'floor smoke',
        figures: expect.any(Object),
        baseline: expect.any(Object),
        ratio: 1,
        target: 'ratio ≥ 1',
        met: true,
      },
    ]);
    const lines: string[] = [];
    printTable([result], (line) => lines.push(line));
    expect(lines[2]).toMatch(/^1 \| floor smoke .* \| MET\s*$/);
  });
});
