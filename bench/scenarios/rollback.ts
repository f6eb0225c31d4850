import { execFile } from 'node:child_process';
import { mkdirSync } from 'node:fs';
import { promisify } from 'node:util';
import { request } from 'undici';
import { median } from '../lib/load';
import type { BenchPostgres } from '../lib/postgres';
import { BENCH_TOKEN, startService } from '../lib/service';
import { round, type ScenarioResult } from '../lib/types';

const run = promisify(execFile);
const IMAGE = 'platform-test/busybox:latest';
const SERVICES = ['web', 'api', 'worker', 'cache', 'db'];
const ROUNDS = 3;
const NAME = 'Rollback of a 5-image app to serving vs a plain redeploy (rebuild) of it';
const TARGET = 'rollback ≤ 1.2× the redeploy';

/**
 * Scenario 11 (needs a Docker engine with the local test image; never pulls). An app of 5 services
 * on the local engine. Subject: `POST /apps/{id}/rollback` to revision 1, which answers once the
 * new containers run beside the old ones and the old are removed (health-gated;
 * SWITCH_GRACE_SECONDS=0, so "serving" is "running", as for the baseline). Baseline:
 * `PUT /apps/{id}` (rebuild: each container removed, then made again), which answers once they run.
 * Alternating, 3 rounds each; the app and its containers are removed at the end.
 */
export async function rollbackVsRedeploy(pg: BenchPostgres, dataDir: string): Promise<ScenarioResult> {
  const missing = await run('docker', ['image', 'inspect', IMAGE]).then(
    () => null,
    (error: Error) => error.message.split('\n')[0],
  );
  if (missing) {
    return { scenario: 11, name: NAME, figures: {}, baseline: null, ratio: null, target: TARGET, met: null, note: `skipped: ${missing}` };
  }
  mkdirSync(dataDir, { recursive: true });
  const service = await startService({
    dataDir,
    databaseUrl: await pg.createDatabase('bench_rollback'),
    env: { SWITCH_GRACE_SECONDS: '0', APP_START_RESUME_AFTER_SECONDS: '3600' },
  });
  const api = async (method: string, path: string, body?: unknown) => {
    const res = await request(`${service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: HTTP ${res.statusCode} ${text}`);
    return text ? (JSON.parse(text) as unknown) : undefined;
  };
  let appId: number | undefined;
  try {
    const compose = `services:\n${SERVICES.map((name) => `  ${name}:\n    image: ${IMAGE}\n    command: sleep 3600\n`).join('')}`;
    appId = ((await api('POST', '/apps', { compose_yaml: compose, name: 'bench-rollback' })) as { id: number }).id;
    for (const deadline = Date.now() + 120_000; ;) {
      const [first] = (await api('GET', `/apps/${appId}/revisions`)) as { outcome: string }[];
      if (first?.outcome === 'succeeded') break;
      if (first?.outcome === 'failed' || Date.now() > deadline) throw new Error(`the app did not start: ${JSON.stringify(first)}`);
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    const rollback: number[] = [];
    const redeploy: number[] = [];
    for (let i = 0; i < ROUNDS; i++) {
      let started = performance.now();
      const revision = (await api('POST', `/apps/${appId}/rollback`, { revision: 1 })) as { outcome: string };
      if (revision.outcome !== 'succeeded') throw new Error(`rollback: ${JSON.stringify(revision)}`);
      rollback.push(performance.now() - started);
      started = performance.now();
      await api('PUT', `/apps/${appId}`);
      redeploy.push(performance.now() - started);
    }
    const rollbackMs = round(median(rollback), 0);
    const redeployMs = round(median(redeploy), 0);
    const ratio = round(rollbackMs / redeployMs, 2);
    return {
      scenario: 11,
      name: NAME,
      figures: { rollbackMsMedian: rollbackMs, rollbackMsAll: rollback.map((ms) => round(ms, 0)).join(' / ') },
      baseline: { redeployMsMedian: redeployMs, redeployMsAll: redeploy.map((ms) => round(ms, 0)).join(' / ') },
      ratio,
      target: TARGET,
      met: ratio <= 1.2,
    };
  } finally {
    if (appId !== undefined) await api('DELETE', `/apps/${appId}`).catch(() => undefined);
    await service.stop();
  }
}
