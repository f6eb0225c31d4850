import { chmodSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { startBenchPostgres, type BenchPostgres } from './lib/postgres';
import { stopAll } from './lib/processes';
import { printTable, writeResults } from './lib/report';
import type { BenchOptions, ScenarioResult } from './lib/types';
import { agentFanout } from './scenarios/agent-fanout';
import { automationScenario } from './scenarios/automation';
import { consoleFirstPage } from './scenarios/console';
import { deployVsCli } from './scenarios/deploy';
import { loadScenario } from './scenarios/load';
import { replicasThroughput } from './scenarios/replicas';
import { restartUnderLoad } from './scenarios/restart';
import { rollbackVsRedeploy } from './scenarios/rollback';
import { restVsGraphqlVsFloor } from './scenarios/rest-graphql-floor';
import { searchAtScale } from './scenarios/search';
import { startupAndMemory } from './scenarios/startup-memory';

/**
 * npm run bench [-- --duration 8 --only 1,2]: every scenario of issue 5 with its baseline
 * measured in the same run, and issue 9's load (6: --load-clients 200 --load-duration 60) and
 * restart after kill -9 under load (7: --restarts 3), the web console's first page (8), events out
 * and deploy hooks (9), and two replicas vs one behind haproxy (10); a table on stdout and
 * bench/results.json. Everything it starts
 * (PostgreSQL, services, agents, containers) it stops, also on Ctrl-C.
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
};
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
  } finally {
    await cleanup();
  }
  printTable(results);
  writeResults(output, results);
  process.stdout.write(`\nwrote ${path.relative(process.cwd(), output)}\n`);
}

main().catch((error: unknown) => {
  process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
  process.exit(1);
});
