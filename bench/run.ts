import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBenchPostgres, type BenchPostgres } from './lib/postgres';
import { stopAll } from './lib/processes';
import { printCurves, printTable, writeResults } from './lib/report';
import type { BenchOptions, ScenarioResult } from './lib/types';
import { agentFanout } from './scenarios/agent-fanout';
import { automationScenario } from './scenarios/automation';
import { consoleFirstPage } from './scenarios/console';
import { appsCurve } from './scenarios/apps-curve';
import { deployKubernetesVsKubectl, deployVsCli } from './scenarios/deploy';
import { deploysCurve } from './scenarios/deploys-curve';
import { journalsCurve } from './scenarios/journals-curve';
import { subscribersCurve } from './scenarios/subscribers-curve';
import { targetsCurve } from './scenarios/targets-curve';
import { templatesCurve } from './scenarios/templates-curve';
import { loadScenario } from './scenarios/load';
import { replicasThroughput } from './scenarios/replicas';
import { restartUnderLoad } from './scenarios/restart';
import { rollbackVsRedeploy } from './scenarios/rollback';
import { restVsGraphqlVsFloor } from './scenarios/rest-graphql-floor';
import { searchAtScale } from './scenarios/search';
import { startupAndMemory } from './scenarios/startup-memory';

/**
 * npm run bench [-- --duration 8 --only 1,2 --full]: every scenario with its baseline measured in
 * the same run: REST/GraphQL against a floor (1), the agent fan-out (2), search (3), start-up and
 * memory (4), deploys through the agent's docker (5) and kubernetes (18) adapters, load (6:
 * --load-clients 200 --load-duration 60), restart after kill -9 under load (7: --restarts 3),
 * the web console (8), events out and deploy hooks (9), two replicas vs one behind haproxy (10),
 * and the scale curves (12 apps, 13 templates, 14 targets, 15 subscribers, 16 journals,
 * 17 concurrent deploys; --full repeats each timed read 50 times instead of 10). A table on stdout,
 * each curve as a markdown table, and bench/results.json. Everything it starts (PostgreSQL,
 * services, agents, containers, namespaces) it stops, also on Ctrl-C.
 */
const args = process.argv.slice(2);
const arg = (name: string): string | undefined => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : undefined;
};
const options: BenchOptions = {
  duration: Number(arg('duration') ?? 8),
  connections: Number(arg('connections') ?? 10),
  searchTemplates: Number(arg('search-templates') ?? 100_000),
  agents: Number(arg('agents') ?? 50),
  agentLatencyMs: 20,
  full: args.includes('--full'),
};
// The curves' repetitions per size: the default keeps the whole bench near 15 minutes.
const reps = options.full ? 50 : 10;
const load = {
  clients: Number(arg('load-clients') ?? 200),
  durationS: Number(arg('load-duration') ?? 60),
  restarts: Number(arg('restarts') ?? 3),
};
const only = arg('only')?.split(',').map(Number);
const wanted = (n: number) => !only || only.includes(n);
const output = arg('output') ?? path.join(__dirname, 'results.json');

async function main(): Promise<void> {
  const work = mkdtempSync(path.join(tmpdir(), 'platform-bench-'));
  chmodSync(work, 0o711);
  let pg: BenchPostgres | undefined;
  const results: ScenarioResult[] = [];
  const cleanup = async () => {
    await stopAll();
    await pg?.stop().catch(() => undefined);
    rmSync(work, { recursive: true, force: true });
  };
  process.once('SIGINT', () => void cleanup().then(() => process.exit(130)));
  try {
    pg = await startBenchPostgres();
    // Scenario 4 reads the service's RSS after scenario 1's load, so 4 runs 1 too.
    const rest = wanted(1) || wanted(4) ? await restVsGraphqlVsFloor(pg, path.join(work, 'rest'), options) : undefined;
    if (rest && wanted(1)) results.push(...rest.results);
    if (wanted(2)) results.push(await agentFanout(pg, path.join(work, 'fanout'), options));
    if (wanted(3)) results.push(...(await searchAtScale(pg, path.join(work, 'search'), options)));
    if (wanted(4)) results.push(...(await startupAndMemory(path.join(work, 'startup'), rest)));
    if (wanted(5)) results.push(await deployVsCli(pg));
    if (wanted(6)) results.push(...(await loadScenario(pg, path.join(work, 'load'), load)));
    // Its own embedded PostgreSQL (the one a kill -9 orphans), loaded for a third of the load's time.
    if (wanted(7))
      results.push(await restartUnderLoad(path.join(work, 'restart'), { ...load, durationS: Math.max(6, Math.round(load.durationS / 3)) }));
    if (wanted(8)) results.push(await consoleFirstPage(path.join(work, 'console')));
    if (wanted(9)) results.push(...(await automationScenario(pg, path.join(work, 'automation'), options)));
    if (wanted(10)) results.push(await replicasThroughput(pg, path.join(work, 'replicas'), options));
    if (wanted(11)) results.push(await rollbackVsRedeploy(pg, path.join(work, 'rollback')));
    // A curve that fails is reported as such; the others still run.
    const curve = async (scenario: number, run: () => Promise<ScenarioResult[]>) => {
      const started = performance.now();
      try {
        results.push(...(await run()));
        process.stderr.write(`scenario ${scenario}: ${Math.round((performance.now() - started) / 1000)} s\n`);
      } catch (error) {
        const message = error instanceof Error ? error.message : String(error);
        process.stderr.write(`scenario ${scenario} failed: ${error instanceof Error ? (error.stack ?? message) : message}\n`);
        results.push({
          scenario,
          name: `scenario ${scenario}`,
          figures: {},
          baseline: null,
          ratio: null,
          target: '',
          met: null,
          note: `failed: ${message.slice(0, 300)}`,
        });
      }
    };
    if (wanted(12)) await curve(12, () => appsCurve(pg!, path.join(work, 'apps'), { sizes: [100, 1_000, 10_000], count: reps }));
    if (wanted(13))
      await curve(13, () => templatesCurve(pg!, path.join(work, 'templates'), { sizes: [1_000, 10_000, 100_000], count: reps }));
    if (wanted(14))
      await curve(14, () =>
        // 40 queries, not 10: the p95 of 10 samples is their slowest; a query here takes 30-100 ms.
        targetsCurve(pg!, path.join(work, 'targets'), { sizes: [10, 50, 200, 500], count: 4 * reps, latencyMs: options.agentLatencyMs }),
      );
    if (wanted(15)) await curve(15, () => subscribersCurve(pg!, path.join(work, 'subscribers'), { sizes: [10, 100, 1_000] }));
    if (wanted(16))
      await curve(16, () => journalsCurve(pg!, path.join(work, 'journals'), { sizes: [10_000, 100_000, 1_000_000], count: reps }));
    if (wanted(17)) await curve(17, () => deploysCurve(pg!, path.join(work, 'deploys'), { sizes: [1, 10, 50] }));
    if (wanted(18)) await curve(18, async () => [await deployKubernetesVsKubectl(pg!)]);
  } finally {
    await cleanup();
  }
  printTable(results);
  printCurves(results);
  writeResults(output, results);
  process.stdout.write(`\nwrote ${path.relative(process.cwd(), output)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
