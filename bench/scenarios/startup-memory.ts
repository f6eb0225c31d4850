import { readFileSync } from 'node:fs';
import { runningUrlFile } from '../../src/db/embedded';
import { freePort } from '../../src/net/free-port';
import { bulkApps } from '../lib/seed';
import { median } from '../lib/load';
import { npmStart, startTs, waitForHealthz } from '../lib/processes';
import { startService } from '../lib/service';
import { round, type ScenarioResult } from '../lib/types';

const STARTS = 3;
const APPS = 10_000;

/**
 * Scenario 4. Start-up: what npm start runs (`node --max-old-space-size=1024 dist/src/main.js`) with its
 * embedded PostgreSQL on a data dir initialised by an earlier start, from spawn to the first
 * /healthz 200; median of 3, then 3 more with 10,000 apps (of 5 services) in its database, against the same node command serving /healthz alone. Memory: the service's RSS after scenario 1's load,
 * against the floor server's.
 */
export async function startupAndMemory(
  dataDir: string,
  rss: { serviceRssMb: number; floorRssMb: number } | undefined,
): Promise<ScenarioResult[]> {
  const first = await startService({ dataDir });
  await first.stop();
  const service: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const started = await startService({ dataDir });
    service.push(started.startMs);
    await started.stop();
  }
  // The same data dir with 10,000 apps of 5 services in its database (rows only), started 3 times more.
  const seeding = await startService({ dataDir });
  await bulkApps(readFileSync(runningUrlFile(dataDir), 'utf8').trim(), 1, APPS);
  await seeding.stop();
  const withApps: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const started = await startService({ dataDir });
    withApps.push(started.startMs);
    await started.stop();
  }
  const bare: number[] = [];
  for (let i = 0; i < STARTS; i++) {
    const port = await freePort();
    const began = performance.now();
    const hello = startTs('bench/lib/hello-server.js', { PORT: String(port) }, { nodeArgs: npmStart().nodeArgs });
    await waitForHealthz(`http://127.0.0.1:${port}`, hello);
    bare.push(performance.now() - began);
    await hello.stop();
  }
  const startMs = round(median(service), 0);
  const withAppsMs = round(median(withApps), 0);
  const bareMs = round(median(bare), 0);
  const results: ScenarioResult[] = [
    {
      scenario: 4,
      name: "Start-up: npm start's command to /healthz 200, existing embedded data dir",
      figures: {
        startMsMedian: startMs,
        startMsAll: service.map((ms) => round(ms, 0)).join(' / '),
        with10kAppsMsMedian: withAppsMs,
        with10kAppsMsAll: withApps.map((ms) => round(ms, 0)).join(' / '),
      },
      baseline: { nodeHealthzMs: bareMs },
      ratio: round(startMs / bareMs, 2),
      target: 'start-up ≤ 1500 ms, with 10,000 apps too',
      met: startMs <= 1500 && withAppsMs <= 1500,
    },
  ];
  results.push(
    rss
      ? {
          scenario: 4,
          name: 'Memory: service RSS after the REST scenario (scenario 1)',
          figures: { rssMb: rss.serviceRssMb },
          baseline: { floorServerRssMb: rss.floorRssMb },
          ratio: round(rss.serviceRssMb / rss.floorRssMb, 2),
          target: 'RSS ≤ 200 MB',
          met: rss.serviceRssMb <= 200,
        }
      : {
          scenario: 4,
          name: 'Memory: service RSS after the REST scenario',
          figures: {},
          baseline: null,
          ratio: null,
          target: 'RSS ≤ 200 MB',
          met: null,
          note: 'scenario 1 did not run',
        },
  );
  return results;
}
