import { request } from 'undici';
import { ipcClient } from '../lib/ipc';
import type { LoadOutcome, LoadStart } from '../lib/load-child';
import { operationText } from '../lib/operations';
import type { BenchPostgres } from '../lib/postgres';
import { startTs, type Child } from '../lib/processes';
import { BENCH_TOKEN, startService, type RunningService } from '../lib/service';
import { issueReadToken, migrate, seedTemplates } from '../lib/seed';
import { round, type ScenarioResult } from '../lib/types';

export interface LoadOptions {
  clients: number;
  durationS: number;
}

/**
 * Scenario 6: `clients` concurrent clients of mixed reads, searches, GraphQL, writes
 * and bad input for `durationS` seconds against the service as npm start runs it; every answer
 * checked, errors counted; /healthz timed from this process every 100 ms throughout.
 */
export async function loadScenario(pg: BenchPostgres, dataDir: string, options: LoadOptions): Promise<ScenarioResult[]> {
  const url = await pg.createDatabase('bench_load');
  const orm = await migrate(url);
  const templateIds = await seedTemplates(orm, 100, 3);
  const readToken = await issueReadToken(orm);
  await orm.close(true);
  const service = await startService({ dataDir, databaseUrl: url });
  try {
    const { outcome, healthz } = await underLoad(service, { templateIds, readToken, ...options });
    return [loadResult(outcome, options), healthzResult(healthz, options)];
  } finally {
    await service.stop();
  }
}

/** Runs the clients (their own process) for the duration while timing /healthz from here. */
export async function underLoad(
  service: RunningService,
  setup: { templateIds: number[]; readToken: string } & LoadOptions,
  during?: (elapsedMs: number) => Promise<void>,
): Promise<{ outcome: LoadOutcome; healthz: HealthzSamples }> {
  const clients = startTs('bench/lib/load-child.ts', {}, { ipc: true });
  try {
    const call = ipcClient(clients);
    const start: LoadStart = {
      url: service.url,
      readToken: setup.readToken,
      writeToken: BENCH_TOKEN,
      templateIds: setup.templateIds,
      clients: setup.clients,
      durationMs: setup.durationS * 1000,
      graphqlGetTemplate: operationText('GetTemplate'),
    };
    const running = call<LoadOutcome>('run', start);
    const probe = probeHealthz(service.url, setup.durationS * 1000);
    if (during) await during(0);
    const [outcome, healthz] = await Promise.all([running, probe]);
    return { outcome, healthz };
  } finally {
    await stopChild(clients);
  }
}

export interface HealthzSamples {
  samples: number[];
  failures: number;
}

/** GET /healthz every 100 ms on its own connection, each timed (a failure counts, as 0 ms is not). */
async function probeHealthz(url: string, durationMs: number): Promise<HealthzSamples> {
  const samples: number[] = [];
  let failures = 0;
  const until = performance.now() + durationMs;
  while (performance.now() < until) {
    const began = performance.now();
    const ok = await request(`${url}/healthz`, { headersTimeout: 30_000, bodyTimeout: 30_000 }).then(
      async (res) => (await res.body.dump(), res.statusCode === 200),
      () => false,
    );
    if (ok) samples.push(performance.now() - began);
    else failures++;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { samples, failures };
}

function stopChild(child: Child): Promise<void> {
  return child.stop(5_000);
}

export function p(samples: number[], q: number): number {
  if (samples.length === 0) return NaN;
  const sorted = [...samples].sort((a, b) => a - b);
  return round(sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)], 1);
}

function loadResult(outcome: LoadOutcome, options: LoadOptions): ScenarioResult {
  const kinds = Object.entries(outcome.byKind)
    // Each kind's own p50/p99: which requests make the tail.
    .map(([name, k]) => `${name} ${k.count} (p50 ${round(k.p50, 0)} / p99 ${round(k.p99, 0)} ms${k.errors ? `, ${k.errors} errors` : ''})`)
    .join('; ');
  const examples = Object.values(outcome.byKind).flatMap((k) => k.examples);
  return {
    scenario: 6,
    name: `Load: ${options.clients} concurrent clients, mixed reads/search/GraphQL/writes/bad input, ${options.durationS} s`,
    figures: {
      requests: outcome.requests,
      reqPerS: round(outcome.requests / options.durationS, 0),
      errors: outcome.errors,
      p50Ms: outcome.p50,
      p99Ms: outcome.p99,
      mix: kinds,
    },
    baseline: null,
    ratio: null,
    target: '0 errors at 200 concurrent clients, p99 ≤ 2000 ms',
    met: outcome.errors === 0 && outcome.p99 <= 2000,
    ...(examples.length ? { note: examples.slice(0, 5).join(' | ') } : {}),
  };
}

function healthzResult(healthz: HealthzSamples, options: LoadOptions): ScenarioResult {
  const p99 = p(healthz.samples, 0.99);
  return {
    scenario: 6,
    name: `Load: GET /healthz latency during the ${options.clients}-client load`,
    figures: { probes: healthz.samples.length, failures: healthz.failures, p50Ms: p(healthz.samples, 0.5), p99Ms: p99 },
    baseline: null,
    ratio: null,
    target: '/healthz p99 ≤ 1000 ms under load',
    met: healthz.failures === 0 && p99 <= 1000,
  };
}
