import { cursorAfter, get, graphql } from '../lib/http';
import { curveResult, load1, point, rssWatch, timed } from '../lib/curve';
import { sql, type BenchPostgres } from '../lib/postgres';
import { bulkTemplates, migrate } from '../lib/seed';
import { startService } from '../lib/service';
import type { CurvePoint, ScenarioResult } from '../lib/types';

const CONNECTION = `query Page($after: String) {
  templatesConnection(first: 50, after: $after) {
    edges { node { databaseId name description keywords type imageCount images { name source ports { containerPort proto } environment { variable value } } } }
    pageInfo { hasNextPage endCursor }
  }
}`;

export interface TemplatesCurveOptions {
  sizes: number[];
  count: number;
}

/**
 * Scenario 13: templates of 2 images (bulkTemplates, as scenario 3) at each size, grown in one
 * database served by one service: REST GET /templates (unpaged by the spec), GraphQL
 * templatesConnection(first: 50) (the first page and one from the middle), and GET /search for a
 * common term ("web", a third of the templates) and a rare one.
 */
export async function templatesCurve(pg: BenchPostgres, dataDir: string, options: TemplatesCurveOptions): Promise<ScenarioResult[]> {
  const url = await pg.createDatabase('bench_templates');
  await (await migrate(url)).close(true);
  // Registry search goes over the network (Docker Hub is seeded enabled): templates only here.
  await sql(url, 'update registries set enabled = false');
  const service = await startService({ dataDir, databaseUrl: url });
  const points: Record<'list' | 'page' | 'search', CurvePoint[]> = { list: [], page: [], search: [] };
  const listCount = Math.max(2, Math.round(options.count / 10));
  // Pages and searches take milliseconds: enough of them that one slow sample is not the p95.
  const readCount = 4 * options.count;
  try {
    let seeded = 0;
    for (const size of options.sizes) {
      await bulkTemplates(url, size, seeded + 1);
      seeded = size;
      const mid = Math.ceil(size / 2);
      // What the service holds before it lists this size; the peak from here includes an untimed first list.
      const idle = rssWatch(service.child.pid).now();
      let rss = rssWatch(service.child.pid);
      const list = await timed(() => get(`${service.url}/templates`), listCount, 1);
      // Whole: every template of the size, the stream not cut short.
      const all = (await get(`${service.url}/templates`, true)) as unknown[];
      if (all.length !== size) throw new Error(`GET /templates: ${all.length} of ${size}`);
      const peak = rss.peak();
      points.list.push(
        point(size, {
          p50Ms: list.p50,
          p95Ms: list.p95,
          msPerTemplate: list.p50 / size,
          rssIdleMb: idle,
          rssPeakMb: peak,
          rssGrowthMb: peak - idle,
          load: load1(),
        }),
      );
      rss = rssWatch(service.child.pid);
      const page = await timed(async () => {
        await graphql(service.url, CONNECTION, {});
        await graphql(service.url, CONNECTION, { after: cursorAfter(mid) });
      }, readCount);
      points.page.push(point(size, { p50Ms: page.p50, p95Ms: page.p95, rssPeakMb: rss.peak(), load: load1() }));
      rss = rssWatch(service.child.pid);
      const common = await timed(() => get(`${service.url}/search?q=web`), readCount);
      const rare = await timed(() => get(`${service.url}/search?q=zyxquartz`), readCount);
      points.search.push(
        point(size, {
          p50Ms: common.p50,
          p95Ms: common.p95,
          rareP50Ms: rare.p50,
          rareP95Ms: rare.p95,
          rssPeakMb: rss.peak(),
          load: load1(),
        }),
      );
    }
  } finally {
    await service.stop();
  }
  const unit = 'templates (× 2 images)';
  const method = `Rows seeded by SQL (as scenario 3), grown in one database served by one service; one request at a time from the harness, ${readCount} timed after 3 untimed (the unpaged list: ${listCount} after one). RSS growth is the service's peak RSS during the unpaged lists (VmHWM) minus its RSS just before the first of them at that size.`;
  return [
    curveResult({
      scenario: 13,
      name: 'Templates: REST GET /templates (unpaged by the spec)',
      unit,
      method,
      points: points.list,
      figure: 'msPerTemplate',
      target:
        'linear (the cost per template at the largest size ≤ 1.5× at the smallest); RSS growth ≤ 100 MB (streamed, not built in memory)',
      check: (p, ratio) => ratio <= 1.5 && p.every((x) => x.rssGrowthMb <= 100),
    }),
    curveResult({
      scenario: 13,
      name: 'Templates: GraphQL templatesConnection(first: 50), the first page and one from the middle',
      unit,
      method,
      points: points.page,
      figure: 'p95Ms',
      target: 'p95 at the largest size ≤ 1.5× p95 at the smallest',
      check: (_p, ratio) => ratio <= 1.5,
    }),
    curveResult({
      scenario: 13,
      name: 'Templates: GET /search, a common term ("web") and a rare one',
      unit,
      method,
      points: points.search,
      figure: 'p95Ms',
      target: 'p95 at the largest size ≤ 1.5× p95 at the smallest',
      check: (_p, ratio) => ratio <= 1.5,
    }),
  ];
}
