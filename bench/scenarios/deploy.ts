import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import type { AgentsStarted } from '../lib/agents-child';
import { ipcClient } from '../lib/ipc';
import { median } from '../lib/load';
import type { BenchPostgres } from '../lib/postgres';
import { startTs } from '../lib/processes';
import { round, type ScenarioResult } from '../lib/types';

const run = promisify(execFile);
const IMAGE = 'platform-test/busybox:latest';
const IMAGES = ['web', 'api', 'worker', 'cache', 'db'];
const ROUNDS = 3;
const NAME = 'Deploy: 5-image template through the agent’s docker adapter vs docker CLI in parallel';
const TARGET = 'adapter ≤ 1.3× the CLI';

/**
 * Scenario 5 (needs a Docker engine with the local test image; never pulls). The agent (real,
 * HTTPS, docker adapter) deploys a 5-image template: POST /deployments answers once every
 * container runs. Baseline: a network plus the same 5 containers by `docker run -d`, all at
 * once. Each side 3 times, alternating; everything made is removed.
 */
export async function deployVsCli(pg: BenchPostgres): Promise<ScenarioResult> {
  const missing = await run('docker', ['image', 'inspect', IMAGE]).then(
    () => null,
    (error: Error) => error.message.split('\n')[0],
  );
  if (missing)
    return {
      scenario: 5,
      name: NAME,
      figures: {},
      baseline: null,
      ratio: null,
      target: TARGET,
      met: null,
      note: `skipped: no Docker engine or no ${IMAGE} here (${missing})`,
    };
  const agents = startTs('bench/lib/agents-child.ts', {}, { ipc: true });
  const call = ipcClient(agents);
  try {
    const { tokens } = await call<AgentsStarted>('start', {
      databaseUrls: [await pg.createDatabase('bench_deploy_agent')],
      latencyMs: 0,
      docker: true,
    });
    const [url, username, password, certPem] = Buffer.from(tokens[0], 'base64').toString('utf8').split('|');
    const pool = new Pool(url, { connect: { ca: certPem } });
    const headers = {
      authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
      'content-type': 'application/json',
    };
    const template = { template: { name: 'bench', images: IMAGES.map((name) => ({ name, source: IMAGE, command: 'sleep 3600' })) } };
    const adapter: number[] = [];
    const cli: number[] = [];
    try {
      for (let i = 0; i < ROUNDS; i++) {
        let started = performance.now();
        const res = await pool.request({ method: 'POST', path: '/deployments', headers, body: JSON.stringify(template) });
        const body = (await res.body.json()) as { id: number; service_ids: string[] };
        if (res.statusCode !== 200) throw new Error(`agent deploy: HTTP ${res.statusCode} ${JSON.stringify(body)}`);
        adapter.push(performance.now() - started);
        await (await pool.request({ method: 'DELETE', path: `/deployments/${body.id}`, headers })).body.dump();

        const network = `bench-cli-${process.pid}-${i}`;
        started = performance.now();
        try {
          await run('docker', ['network', 'create', '--label', 'platform-bench=1', network]);
          await Promise.all(
            IMAGES.map((name) =>
              run('docker', [
                'run',
                '-d',
                '--name',
                `${network}-${name}`,
                '--label',
                'platform-bench=1',
                '--network',
                network,
                '--network-alias',
                name,
                '--restart',
                'unless-stopped',
                IMAGE,
                'sleep',
                '3600',
              ]),
            ),
          );
          cli.push(performance.now() - started);
        } finally {
          await run('docker', ['rm', '-f', ...IMAGES.map((name) => `${network}-${name}`)]).catch(() => undefined);
          await run('docker', ['network', 'rm', network]).catch(() => undefined);
        }
      }
    } finally {
      await pool.close();
    }
    const adapterMs = round(median(adapter), 0);
    const cliMs = round(median(cli), 0);
    const ratio = round(adapterMs / cliMs, 2);
    return {
      scenario: 5,
      name: NAME,
      figures: { adapterMsMedian: adapterMs, adapterMsAll: adapter.map((ms) => round(ms, 0)).join(' / ') },
      baseline: { cliMsMedian: cliMs, cliMsAll: cli.map((ms) => round(ms, 0)).join(' / ') },
      ratio,
      target: TARGET,
      met: ratio <= 1.3,
    };
  } finally {
    await call('stop').catch(() => undefined);
    await agents.stop();
  }
}
