import { request } from 'undici';
import { freePort } from '../../src/net/free-port';
import { median } from '../lib/load';
import type { LoadOptions } from './load';
import { underLoad } from './load';
import { BENCH_TOKEN, startService, type RunningService } from '../lib/service';
import { issueReadToken, migrate, seedTemplates } from '../lib/seed';
import { round, type ScenarioResult } from '../lib/types';
import { readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * Scenario 7: kill -9 of the service under load, then npm start's command on the same
 * data dir and port (its embedded PostgreSQL, which the kill leaves running as an orphan): the
 * time from spawn to /healthz and to /readyz 200, and every write acknowledged before the kill
 * present after it. `restarts` rounds; the median is what is compared with the 10 s target.
 */
export async function restartUnderLoad(dataDir: string, options: LoadOptions & { restarts: number }): Promise<ScenarioResult> {
  const port = await freePort();
  let service: RunningService = await startService({ dataDir, port });
  const readyz: number[] = [];
  const healthz: number[] = [];
  let lost = 0;
  try {
    const url = readFileSync(path.join(dataDir, 'postgres-url'), 'utf8').trim();
    const orm = await migrate(url);
    const templateIds = await seedTemplates(orm, 100, 3);
    const readToken = await issueReadToken(orm);
    await orm.close(true);
    for (let round = 0; round < options.restarts; round++) {
      const acked = `restart-${round}`;
      await underLoad(service, { templateIds, readToken, clients: options.clients, durationS: options.durationS }, async () => {
        await new Promise((resolve) => setTimeout(resolve, (options.durationS * 1000) / 3));
        const created = await request(`${service.url}/registries`, {
          method: 'POST',
          headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
          body: JSON.stringify({ name: acked, endpoint_url: 'https://acked.example' }),
        });
        await created.body.dump();
        if (created.statusCode !== 201) throw new Error(`POST /registries before the kill: HTTP ${created.statusCode}`);
        service.child.process.kill('SIGKILL');
        await service.child.exited;
        const began = performance.now();
        service = await startService({ dataDir, port });
        healthz.push(performance.now() - began);
        await waitForReady(service.url);
        readyz.push(performance.now() - began);
      });
      const listed = await request(`${service.url}/registries`, { headers: { authorization: `Bearer ${BENCH_TOKEN}` } });
      const names = ((await listed.body.json()) as { name: string }[]).map((r) => r.name);
      if (!names.includes(acked)) lost++;
    }
  } finally {
    await service.stop();
  }
  const readyMs = round(median(readyz), 0);
  return {
    scenario: 7,
    name: `Restart after kill -9 under a ${options.clients}-client load: npm start's command, same data dir (orphaned embedded PostgreSQL)`,
    figures: {
      readyzMsMedian: readyMs,
      readyzMsAll: readyz.map((ms) => round(ms, 0)).join(' / '),
      healthzMsMedian: round(median(healthz), 0),
      acknowledgedWritesLost: lost,
    },
    baseline: null,
    ratio: null,
    target: 'serving (/readyz 200) ≤ 10000 ms after the restart, no acknowledged write lost',
    met: readyMs <= 10_000 && lost === 0,
  };
}

async function waitForReady(url: string, timeoutMs = 120_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  while (performance.now() < until) {
    const status = await request(`${url}/readyz`).then(
      async (res) => (await res.body.dump(), res.statusCode),
      () => 0,
    );
    if (status === 200) return;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${url}/readyz did not answer 200 within ${timeoutMs} ms`);
}
