import { Pool } from 'undici';
import { z } from 'zod';
import { curveResult, load1, point, rssWatch, timed } from '../lib/curve';
import { graphql, send } from '../lib/http';
import { ipcClient } from '../lib/ipc';
import { median } from '../lib/load';
import type { BenchPostgres } from '../lib/postgres';
import { startTs } from '../lib/processes';
import { startService, type RunningService } from '../lib/service';
import type { StubAgentsStarted } from '../lib/stub-agents-child';
import type { CurvePoint, ScenarioResult } from '../lib/types';

const QUERY = '{ deploymentTargets { id deployments { id status { services { orchestratorId actualState } } } } }';
const Answer = z.object({
  deploymentTargets: z.array(
    z.object({ deployments: z.array(z.object({ status: z.object({ services: z.array(z.object({ actualState: z.string() })) }) })) }),
  ),
});

export interface TargetsCurveOptions {
  sizes: number[];
  count: number;
  latencyMs: number;
}

/**
 * Scenario 14: `deploymentTargets { deployments { status } }` over 10 / 50 / 200 / 500 agents.
 * The agents are stand-ins sharing one process (bench/lib/stub-agents-child.ts: TLS, Basic auth,
 * +latency, answers from memory). At each size the targets are registered, the service is started
 * afresh on the same database, and the first query (every TLS connection opened) is timed, then
 * `count` queries after 10 untimed ones; every agent counts what it is asked. The same agents
 * asked straight from the harness, all at once on kept-alive TLS, are what the query cannot beat.
 */
export async function targetsCurve(pg: BenchPostgres, dataDir: string, options: TargetsCurveOptions): Promise<ScenarioResult[]> {
  const databaseUrl = await pg.createDatabase('bench_targets');
  const stubs = startTs('bench/lib/stub-agents-child.ts', {}, { ipc: true });
  const call = ipcClient(stubs);
  const points: CurvePoint[] = [];
  const cold: CurvePoint[] = [];
  let exact = true;
  let service: RunningService | undefined;
  try {
    const tokens: string[] = [];
    for (const size of options.sizes) {
      const added = await call<StubAgentsStarted>('start', { count: size, latencyMs: options.latencyMs });
      service = await startService({ dataDir, databaseUrl });
      for (const [i, token] of added.tokens.entries())
        await send('POST', `${service.url}/deployment_targets`, { name: `agent-${tokens.length + i}`, auth_blob: token });
      tokens.push(...added.tokens);
      await service.stop();
      service = await startService({ dataDir, databaseUrl });
      const query = async () => {
        const data = Answer.parse(await graphql(service!.url, QUERY));
        const running = data.deploymentTargets.filter((t) => t.deployments[0]?.status.services.every((s) => s.actualState === 'running'));
        if (running.length !== size) throw new Error(`fan-out over ${size} agents: ${running.length} answered running`);
      };
      await call('reset');
      const started = performance.now();
      await query();
      const firstMs = performance.now() - started;
      const once = await call<Record<string, number>[]>('counts');
      const rss = rssWatch(service.child.pid);
      const agentsRss = rssWatch(stubs.pid);
      const warm = await timed(query, options.count, 10);
      // The health poller asks every target GET /metadata once a round from the start, beside the query.
      const perTarget = once
        .slice(0, size)
        .map((c) => Object.entries(c).reduce((a, [shape, n]) => (shape === 'GET /metadata' ? a : a + n), 0));
      exact &&= perTarget.every((n) => n === 1);
      const direct = await directRound(tokens);
      points.push(
        point(size, {
          p50Ms: warm.p50,
          p95Ms: warm.p95,
          agentsAloneMs: direct,
          requestsPerTarget: Math.max(...perTarget),
          rssPeakMb: rss.peak(),
          agentsRssPeakMb: agentsRss.peak(),
          load: load1(),
        }),
      );
      cold.push(point(size, { firstQueryMs: firstMs, warmP50Ms: warm.p50, load: load1() }));
      await service.stop();
      service = undefined;
    }
  } finally {
    await service?.stop();
    await call('stop').catch(() => undefined);
    await stubs.stop();
  }
  const unit = 'agents';
  const method = `Stand-in agents sharing one process (+${options.latencyMs} ms each, answers from memory); the service started afresh at each size on the same database; ${options.count} queries timed after 10 untimed, one at a time. "agentsAloneMs": every agent asked at once from the harness on kept-alive TLS, median of 10.`;
  const at = (n: number) => points.find((p) => p.size === n);
  const fifty = at(50) ?? points[0];
  return [
    curveResult({
      scenario: 14,
      name: 'Targets: deploymentTargets { deployments { status } } fan-out, warm',
      unit,
      method,
      points,
      figure: 'p95Ms',
      target: `p95 at the largest size ≤ 3× p95 at 50; exactly one agent request per target; service RSS ≤ 400 MB`,
      check: (p) => {
        const last = p[p.length - 1];
        return exact && last.p95Ms <= 3 * fifty.p95Ms && p.every((x) => x.rssPeakMb <= 400);
      },
      note: exact ? undefined : 'some target was asked more than once by one query',
    }),
    curveResult({
      scenario: 14,
      name: 'Targets: the first fan-out query after a start (TLS to every agent)',
      unit,
      method,
      points: cold,
      figure: 'firstQueryMs',
      target: '(reported; the single-size target is scenario 2)',
      check: () => true,
    }),
  ];
}

/** Every agent asked GET /deployments?include=status at once, on one kept-alive TLS connection each: median of 10 rounds. */
async function directRound(tokens: string[]): Promise<number> {
  const agents = tokens.map((token) => {
    const [url, username, password, certPem] = Buffer.from(token, 'base64').toString('utf8').split('|');
    return {
      pool: new Pool(url, { connect: { ca: certPem }, connections: 1 }),
      headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
    };
  });
  const round = () =>
    Promise.all(
      agents.map(async (a) => {
        const res = await a.pool.request({ method: 'GET', path: '/deployments?include=status', headers: a.headers });
        await res.body.dump();
      }),
    );
  try {
    await round();
    const rounds: number[] = [];
    for (let i = 0; i < 10; i++) {
      const started = performance.now();
      await round();
      rounds.push(performance.now() - started);
    }
    return median(rounds);
  } finally {
    await Promise.all(agents.map((a) => a.pool.close()));
  }
}
