import { cursorAfter, get, graphql } from '../lib/http';
import { curveResult, load1, point, rssWatch, timed } from '../lib/curve';
import type { BenchPostgres } from '../lib/postgres';
import { bulkApps, migrate } from '../lib/seed';
import { startService } from '../lib/service';
import type { CurvePoint, ScenarioResult } from '../lib/types';

const CONNECTION = `query Page($after: String) {
  appsConnection(first: 50, after: $after) {
    edges { node { id databaseId name from errors { message } categories { name position } } }
    pageInfo { hasNextPage endCursor }
  }
}`;
const ONE_APP = `query AppPage($id: Int!) {
  app(id: $id) { databaseId name from documentation errors { message } categories { name position } }
  services(appId: $id) { databaseId name activeState subState ports { containerPort hostPort proto } environment { variable value } }
}`;

export interface AppsCurveOptions {
  sizes: number[];
  /** Repetitions of the paged and single-object reads at each size (the unpaged list: a fifth, at least 3). */
  count: number;
}

/**
 * Scenario 12: apps of 5 services (rows only, see bulkApps) at each size, grown in one database
 * served by one service: REST GET /apps (unpaged by the spec), GraphQL appsConnection(first: 50)
 * (the first page, and a page from the middle), and one app's page (the app with its services
 * and their states from the engine). One request at a time from here.
 */
export async function appsCurve(pg: BenchPostgres, dataDir: string, options: AppsCurveOptions): Promise<ScenarioResult[]> {
  const url = await pg.createDatabase('bench_apps');
  await (await migrate(url)).close(true);
  const service = await startService({ dataDir, databaseUrl: url });
  const points: Record<'list' | 'page' | 'one', CurvePoint[]> = { list: [], page: [], one: [] };
  const listCount = Math.max(2, Math.round(options.count / 5));
  try {
    let seeded = 0;
    for (const size of options.sizes) {
      await bulkApps(url, seeded + 1, size);
      seeded = size;
      const mid = Math.ceil(size / 2);
      const idle = rssWatch(service.child.pid).now();
      let rss = rssWatch(service.child.pid);
      const list = await timed(() => get(`${service.url}/apps`), listCount, 1);
      // Whole: every app of the size, the stream not cut short.
      const all = (await get(`${service.url}/apps`, true)) as unknown[];
      if (all.length !== size) throw new Error(`GET /apps: ${all.length} of ${size}`);
      points.list.push(
        point(size, { p50Ms: list.p50, p95Ms: list.p95, msPerApp: list.p50 / size, rssIdleMb: idle, rssPeakMb: rss.peak(), load: load1() }),
      );
      rss = rssWatch(service.child.pid);
      const page = await timed(async () => {
        await graphql(service.url, CONNECTION, {});
        await graphql(service.url, CONNECTION, { after: cursorAfter(mid) });
      }, options.count);
      points.page.push(point(size, { p50Ms: page.p50, p95Ms: page.p95, rssPeakMb: rss.peak(), load: load1() }));
      rss = rssWatch(service.child.pid);
      const one = await timed(() => graphql(service.url, ONE_APP, { id: mid }), options.count);
      points.one.push(point(size, { p50Ms: one.p50, p95Ms: one.p95, rssPeakMb: rss.peak(), load: load1() }));
    }
  } finally {
    await service.stop();
  }
  const unit = 'apps (× 5 services)';
  const method = `Rows seeded by SQL, grown in one database served by one service (npm start's command); one request at a time from the harness, ${options.count} timed after 3 untimed (the unpaged list: ${listCount} after 1). RSS is the service's peak while the size was measured (VmHWM, reset per operation).`;
  const largest = options.sizes[options.sizes.length - 1];
  return [
    curveResult({
      scenario: 12,
      name: 'Apps: REST GET /apps (unpaged by the spec)',
      unit,
      method,
      points: points.list,
      figure: 'msPerApp',
      target: `linear (the cost per app at ${largest.toLocaleString('en')} ≤ 1.5× at ${options.sizes[0]}), RSS ≤ 400 MB`,
      check: (p, ratio) => ratio <= 1.5 && p.every((x) => x.rssPeakMb <= 400),
    }),
    curveResult({
      scenario: 12,
      name: 'Apps: GraphQL appsConnection(first: 50), the first page and one from the middle',
      unit,
      method,
      points: points.page,
      figure: 'p95Ms',
      target: 'p95 at the largest size ≤ 1.5× p95 at the smallest',
      check: (_p, ratio) => ratio <= 1.5,
    }),
    curveResult({
      scenario: 12,
      name: "Apps: one app's page (app, categories, services with their states)",
      unit,
      method,
      points: points.one,
      figure: 'p95Ms',
      target: 'p95 at the largest size ≤ 1.5× p95 at the smallest',
      check: (_p, ratio) => ratio <= 1.5,
    }),
  ];
}
