import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/net/free-port';
import { describeWithProgram, waitUntil } from './processes';

export const PROMETHEUS = '/usr/bin/prometheus';

/** Whether Debian's prometheus is installed; REQUIRE_PROMETHEUS=1 (CI) makes its absence a failure. */
export function describePrometheus(name: string, fn: () => void): void {
  describeWithProgram(
    { path: PROMETHEUS, versionArg: '--version', requireEnv: 'REQUIRE_PROMETHEUS', debianPackage: 'prometheus' },
    name,
    fn,
  );
}

export interface PromSample {
  metric: Record<string, string>;
  value: number;
}

export interface Prometheus {
  url: string;
  /** An instant query through the HTTP API (/api/v1/query). */
  query(promql: string): Promise<PromSample[]>;
  /** Waits until every job's target has been scraped and is up. */
  targetsUp(jobs: string[]): Promise<void>;
  output: () => string;
  close: () => Promise<void>;
}

/**
 * Debian's prometheus on a free loopback port, scraping `jobs` (job name → host:port targets)
 * every second, with its data in a temp dir.
 */
export async function startPrometheus(jobs: Record<string, string[]>): Promise<Prometheus> {
  const dir = mkdtempSync(path.join(tmpdir(), 'prometheus-'));
  const port = await freePort();
  const config = [
    'global:',
    '  scrape_interval: 1s',
    '  evaluation_interval: 1s',
    'scrape_configs:',
    ...Object.entries(jobs).flatMap(([job, targets]) => [
      `  - job_name: ${job}`,
      '    static_configs:',
      `      - targets: [${targets.map((t) => `'${t}'`).join(', ')}]`,
    ]),
    '',
  ].join('\n');
  writeFileSync(path.join(dir, 'prometheus.yml'), config);
  const child: ChildProcess = spawn(
    PROMETHEUS,
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--log.level=warn',
    ],
    { stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;

  const api = async <T>(pathname: string): Promise<T> => {
    const res = await fetch(`${url}${pathname}`);
    const body = (await res.json()) as { status: string; data: T; error?: string };
    if (body.status !== 'success') throw new Error(`prometheus ${pathname}: ${body.error ?? res.status}`);
    return body.data;
  };
  const prometheus: Prometheus = {
    url,
    async query(promql) {
      const data = await api<{ result: { metric: Record<string, string>; value: [number, string] }[] }>(
        `/api/v1/query?query=${encodeURIComponent(promql)}`,
      );
      return data.result.map((r) => ({ metric: r.metric, value: Number(r.value[1]) }));
    },
    async targetsUp(names) {
      await waitUntil(
        async () => {
          const data = await api<{ activeTargets: { labels: { job: string }; health: string }[] }>('/api/v1/targets');
          return names.every((job) => data.activeTargets.some((t) => t.labels.job === job && t.health === 'up'));
        },
        `prometheus scraped ${names.join(', ')}`,
        60_000,
        () => output,
      );
    },
    output: () => output,
    async close() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitUntil(
      async () => (await fetch(`${url}/-/ready`)).status === 200,
      'prometheus became ready',
      60_000,
      () => output,
    );
  } catch (error) {
    await prometheus.close();
    throw error;
  }
  return prometheus;
}
