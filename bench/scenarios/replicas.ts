import { spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { throughput } from '../lib/load';
import { startBalancer } from '../lib/balancer';
import type { BenchPostgres } from '../lib/postgres';
import { issueReadToken, migrate, seedTemplates } from '../lib/seed';
import { startService } from '../lib/service';
import { round, type BenchOptions, type ScenarioResult } from '../lib/types';

/**
 * Scenario 9: GET /templates (100 × 3 images) through haproxy, with two replicas of the service
 * behind it against one. Both runs go through the same balancer configuration on one PostgreSQL,
 * so the ratio is what the second replica adds. The load generator, haproxy, PostgreSQL and the
 * replicas share this machine's cores: on 2 cores, two replicas cannot double anything, and the
 * ratio says how much of the second core a second replica wins back.
 */
export async function replicasThroughput(pg: BenchPostgres, dataDir: string, options: BenchOptions): Promise<ScenarioResult> {
  const target = '2 replicas vs 1 through haproxy, req/s (reported as measured; 2 cores)';
  if (spawnSync('/usr/sbin/haproxy', ['-v']).status !== 0) {
    return {
      scenario: 9,
      name: 'replicas: GET /templates through haproxy',
      figures: {},
      baseline: null,
      ratio: null,
      target,
      met: null,
      note: 'haproxy is not installed',
    };
  }
  const url = await pg.createDatabase('bench_replicas');
  const orm = await migrate(url);
  await seedTemplates(orm, 100, 3);
  const token = await issueReadToken(orm);
  await orm.close(true);
  // Replicas share the database and SECRET_KEY (README "Replicas"), nothing else.
  const secretKey = randomBytes(32).toString('hex');
  const first = await startService({ dataDir: `${dataDir}-1`, databaseUrl: url, secretKey });
  const second = await startService({ dataDir: `${dataDir}-2`, databaseUrl: url, secretKey });
  const backend = (s: { url: string }) => s.url.replace('http://', '');
  const run = { duration: options.duration, connections: options.connections };
  const headers = { authorization: `Bearer ${token}` };
  try {
    const one = await startBalancer([backend(first)]);
    const alone = await throughput({ url: `${one.url}/templates`, headers }, run).finally(() => one.stop());
    const two = await startBalancer([backend(first), backend(second)]);
    const both = await throughput({ url: `${two.url}/templates`, headers }, run).finally(() => two.stop());
    const ratio = round(both.rps / alone.rps, 2);
    const clean = both.errors === 0 && alone.errors === 0;
    return {
      scenario: 9,
      name: 'replicas: GET /templates (100 × 3) through haproxy, 2 replicas vs 1',
      figures: { rps: both.rps, p50Ms: both.p50, p99Ms: both.p99, errors: both.errors },
      baseline: { rps: alone.rps, p50Ms: alone.p50, p99Ms: alone.p99, errors: alone.errors },
      ratio,
      target,
      // More than one replica must at least not cost throughput; more is the cores' to give.
      met: clean && ratio >= 1,
      ...(clean ? {} : { note: 'requests failed during the run' }),
    };
  } finally {
    await second.stop();
    await first.stop();
  }
}
