import { curveResult, load1, point, rssWatch } from '../lib/curve';
import { get, send } from '../lib/http';
import type { BenchPostgres } from '../lib/postgres';
import { migrate } from '../lib/seed';
import { startService } from '../lib/service';
import type { CurvePoint, ScenarioResult } from '../lib/types';
import { untilRunning } from './subscribers-curve';

const IMAGE = 'platform-test/busybox:latest';
const COMPOSE = `services:\n  web:\n    image: ${IMAGE}\n    command: ["sleep", "3600"]\n  db:\n    image: ${IMAGE}\n    command: ["sleep", "3600"]\n`;

export interface DeploysCurveOptions {
  sizes: number[];
}

/**
 * Scenario 17: N apps (two busybox services each, their own network) created at once on one
 * engine through POST /apps, timed from the first request to every service of every app
 * running; the time per app is that over N. Each size's apps are deleted before the next.
 */
export async function deploysCurve(pg: BenchPostgres, dataDir: string, options: DeploysCurveOptions): Promise<ScenarioResult[]> {
  const url = await pg.createDatabase('bench_deploys');
  await (await migrate(url)).close(true);
  const service = await startService({ dataDir, databaseUrl: url });
  const points: CurvePoint[] = [];
  try {
    for (const size of options.sizes) {
      const rss = rssWatch(service.child.pid);
      let errors = 0;
      const problems: string[] = [];
      const started = performance.now();
      await Promise.all(
        Array.from({ length: size }, async (_, i) => {
          try {
            const app = (await send('POST', `${service.url}/apps`, { compose_yaml: COMPOSE, name: `bench-deploy-${size}-${i}` })) as {
              id: number;
            };
            await untilRunning(service, app.id, 300_000);
          } catch (error) {
            errors++;
            if (problems.length < 3) problems.push(String(error).slice(0, 300));
          }
        }),
      );
      const totalMs = performance.now() - started;
      points.push(point(size, { totalMs, msPerApp: totalMs / size, errors, rssPeakMb: rss.peak(), load: load1() }));
      if (problems.length) process.stderr.write(`deploys at ${size}: ${problems.join(' | ')}\n`);
      await deleteApps(service.url);
    }
  } finally {
    await deleteApps(service.url).catch(() => undefined);
    await service.stop();
  }
  return [
    curveResult({
      scenario: 17,
      name: 'Concurrent deploys: N apps of two services created at once on one engine',
      unit: 'apps at once',
      method:
        'POST /apps (a compose file of two busybox services) N times at once from the harness, then GET /apps/{id}/services every 200 ms until every service is active/running; per app = the whole time over N. Errors: a create that failed or an app not running within 5 minutes (address-pool exhaustion would be a 409).',
      points,
      figure: 'msPerApp',
      target: 'time per app at the largest size ≤ 2× at 1; no errors',
      check: (p, ratio) => ratio <= 2 && p.every((x) => x.errors === 0),
    }),
  ];
}

/** Every app of the bench's database, those whose create answered an error too (they may have run). */
async function deleteApps(url: string): Promise<void> {
  const apps = (await get(`${url}/apps`, true)) as { id: number }[];
  for (const app of apps) await send('DELETE', `${url}/apps/${app.id}`, undefined, 204).catch(() => undefined);
}
