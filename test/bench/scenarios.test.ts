import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBenchPostgres, type BenchPostgres } from '../../bench/lib/postgres';
import { stopAll } from '../../bench/lib/processes';
import type { ScenarioResult } from '../../bench/lib/types';
import { appsCurve } from '../../bench/scenarios/apps-curve';
import { deployKubernetesVsKubectl } from '../../bench/scenarios/deploy';
import { deploysCurve } from '../../bench/scenarios/deploys-curve';
import { journalsCurve } from '../../bench/scenarios/journals-curve';
import { subscribersCurve } from '../../bench/scenarios/subscribers-curve';
import { targetsCurve } from '../../bench/scenarios/targets-curve';
import { templatesCurve } from '../../bench/scenarios/templates-curve';
import { describeDocker } from '../helpers/docker';
import { describeKubernetes } from '../helpers/kubernetes';

/**
 * npm run bench is not part of npm test; this runs each scale curve (and the Kubernetes deploy)
 * at its smallest sizes, so a scenario that no longer runs, or runs and measures nothing, fails
 * here rather than on the day someone needs its figures. What is checked is that every size was
 * measured and gave numbers, not what the numbers are.
 */
let pg: BenchPostgres;
let dir: string;

beforeAll(async () => {
  pg = await startBenchPostgres({ url: process.env.TEST_DATABASE_URL, prefix: `smoke_${randomBytes(4).toString('hex')}_` });
  dir = mkdtempSync(path.join(tmpdir(), 'bench-smoke-'));
});

afterAll(async () => {
  await stopAll();
  await pg?.stop();
  rmSync(dir, { recursive: true, force: true });
});

/** Every size measured, and each figure a number. */
function expectCurve(result: ScenarioResult, sizes: number[], figures: string[]): void {
  expect(result.curve?.points.map((p) => p.size)).toEqual(sizes);
  for (const p of result.curve?.points ?? []) for (const figure of figures) expect(Number.isFinite(p[figure])).toBe(true);
  expect(typeof result.met).toBe('boolean');
}

test('scenario 12: the apps curve measures GET /apps, a connection page and one app at each size', async () => {
  const results = await appsCurve(pg, path.join(dir, 'apps'), { sizes: [2, 4], count: 2 });
  expect(results.map((r) => r.name)).toEqual([
    'Apps: REST GET /apps (unpaged by the spec)',
    'Apps: GraphQL appsConnection(first: 50), the first page and one from the middle',
    "Apps: one app's page (app, categories, services with their states)",
  ]);
  expectCurve(results[0], [2, 4], ['p50Ms', 'p95Ms', 'msPerApp', 'rssPeakMb', 'msPerAppRatio']);
  for (const r of results.slice(1)) expectCurve(r, [2, 4], ['p50Ms', 'p95Ms', 'rssPeakMb', 'p95MsRatio']);
}, 120_000);

test('scenario 13: the templates curve measures the unpaged list, a connection page and search at each size', async () => {
  const results = await templatesCurve(pg, path.join(dir, 'templates'), { sizes: [3, 6], count: 2 });
  expect(results).toHaveLength(3);
  expectCurve(results[0], [3, 6], ['p95Ms', 'msPerTemplate', 'rssGrowthMb']);
  expectCurve(results[2], [3, 6], ['p95Ms', 'rareP95Ms']);
}, 120_000);

test('scenario 14: the targets curve counts one agent request per target at each size', async () => {
  const [warm, cold] = await targetsCurve(pg, path.join(dir, 'targets'), { sizes: [2, 3], count: 2, latencyMs: 1 });
  expectCurve(warm, [2, 3], ['p95Ms', 'agentsAloneMs', 'rssPeakMb', 'agentsRssPeakMb']);
  expect(warm.curve?.points.map((p) => p.requestsPerTarget)).toEqual([1, 1]);
  expectCurve(cold, [2, 3], ['firstQueryMs']);
}, 180_000);

describeDocker('scale curves on the Docker engine', () => {
  test('scenario 15: every subscriber gets every state change of a real container', async () => {
    const [result] = await subscribersCurve(pg, path.join(dir, 'subscribers'), { sizes: [2, 4] });
    expectCurve(result, [2, 4], ['p50Ms', 'p99Ms', 'eventsPerClient', 'rssPeakMb']);
    expect(result.curve?.points.map((p) => [p.dropped, p.clientsShort])).toEqual([
      [0, 0],
      [0, 0],
    ]);
    expect(result.curve?.points.every((p) => p.eventsPerClient >= 2)).toBe(true);
  }, 240_000);

  test('scenario 16: the journal reads of a container that wrote N lines are timed at each size', async () => {
    const results = await journalsCurve(pg, path.join(dir, 'journals'), { sizes: [50, 1200], count: 2 });
    expect(results).toHaveLength(4);
    for (const r of results) expectCurve(r, [50, 1200], ['p50Ms', 'p95Ms']);
  }, 240_000);

  test('scenario 17: N apps created at once all run, without errors', async () => {
    const [result] = await deploysCurve(pg, path.join(dir, 'deploys'), { sizes: [1, 2] });
    expectCurve(result, [1, 2], ['totalMs', 'msPerApp', 'msPerAppRatio']);
    expect(result.curve?.points.map((p) => p.errors)).toEqual([0, 0]);
  }, 240_000);
});

describeKubernetes('the Kubernetes deploy scenario', () => {
  test('scenario 18: the agent and kubectl each deploy the 5-image template once', async () => {
    const result = await deployKubernetesVsKubectl(pg, 1);
    expect(result.note).not.toMatch(/^skipped/);
    expect(Number.isFinite(result.figures.acceptedMsMedian)).toBe(true);
    expect(Number.isFinite(result.figures.runningMsMedian)).toBe(true);
    expect(Number.isFinite(result.baseline?.availableMsMedian)).toBe(true);
    expect(typeof result.met).toBe('boolean');
  }, 300_000);
});
