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
 * autocannon against one endpoint: a short warm-up (JIT, pools, caches), then the measured run.
 * Any non-2xx or socket error is counted; a run with errors is reported, not hidden.
 */
export async function throughput(target: LoadTarget, options: { duration: number; connections: number }): Promise<Throughput> {
  const base = {
    url: target.url,
    method: target.method ?? 'GET',
    headers: target.headers,
    body: target.body,
    connections: options.connections,
  };
  await autocannon({ ...base, duration: Math.max(1, Math.round(options.duration / 4)) });
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
