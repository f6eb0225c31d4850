import autocannon from 'autocannon';
import { request } from 'undici';
import { round } from './types';

export interface LoadTarget {
  url: string;
  method?: 'GET' | 'POST';
  headers?: Record<string, string>;
  body?: string;
}

export interface Throughput {
  rps: number;
  p50: number;
  p99: number;
  errors: number;
}

/**
 * autocannon against one endpoint: a short warm-up (JIT, pools, caches) unless `warmup: false`, then the measured run.
 * Any non-2xx or socket error is counted; a run with errors is reported, not hidden.
 */
export async function throughput(
  target: LoadTarget,
  options: { duration: number; connections: number; warmup?: boolean },
): Promise<Throughput> {
  const base = {
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    connections: options.connections,
  };
  if (options.warmup !== false) await autocannon({ ...base, duration: Math.max(1, Math.round(options.duration / 4)) });
  const result = await autocannon({ ...base, duration: options.duration });
  return {
    rps: round(result.requests.average, 0),
    p50: result.latency.p50,
    p99: result.latency.p99,
    errors: result.errors + result.timeouts + result.non2xx,
  };
}

/** Sequential requests (one at a time), each timed: latency percentiles in ms. */
export async function latencies(target: LoadTarget, count: number, warmup = 5): Promise<{ p50: number; p95: number; samples: number[] }> {
  const samples: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const started = performance.now();
    const res = await request(target.url, { method: target.method ?? 'GET', headers: target.headers, body: target.body });
    await res.body.dump();
    if (res.statusCode >= 300) throw new Error(`${target.url}: HTTP ${res.statusCode}`);
    if (i >= warmup) samples.push(performance.now() - started);
  }
  return { ...percentiles(samples), samples };
}

export function percentiles(samples: number[]): { p50: number; p95: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: round(at(0.5), 2), p95: round(at(0.95), 2) };
}

export const median = (values: number[]): number => [...values].sort((a, b) => a - b)[Math.floor((values.length - 1) / 2)];

/**
 * Endpoints measured against each other: `rounds` short runs of each, interleaved (the order
 * reversed every other round), so a change of the machine's load meets them all alike. Each is
 * warmed up once, before its first round. req/s is the mean of the rounds, p50 and p99 their medians.
 */
export async function interleaved<K extends string>(
  targets: Record<K, LoadTarget>,
  options: { duration: number; connections: number; rounds: number },
): Promise<Record<K, Throughput>> {
  const names = Object.keys(targets) as K[];
  const runs = Object.fromEntries(names.map((name) => [name, [] as Throughput[]])) as Record<K, Throughput[]>;
  const duration = Math.max(1, Math.round(options.duration / options.rounds));
  for (let round = 0; round < options.rounds; round++) {
    for (const name of round % 2 === 0 ? names : [...names].reverse()) {
      runs[name].push(await throughput(targets[name], { duration, connections: options.connections, warmup: round === 0 }));
    }
  }
  const combined = (all: Throughput[]): Throughput => ({
    rps: round(all.reduce((sum, run) => sum + run.rps, 0) / all.length, 0),
    p50: median(all.map((run) => run.p50)),
    p99: median(all.map((run) => run.p99)),
    errors: all.reduce((sum, run) => sum + run.errors, 0),
  });
  return Object.fromEntries(names.map((name) => [name, combined(runs[name])])) as Record<K, Throughput>;
}
