import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { freePort } from '../../src/net/free-port';
import { describeWithProgram, waitUntil } from './processes';

export const HAPROXY = '/usr/sbin/haproxy';

/** Whether Debian's haproxy is installed; REQUIRE_HAPROXY=1 (CI) makes its absence a failure. */
export function describeHaproxy(name: string, fn: () => void): void {
  describeWithProgram({ path: HAPROXY, versionArg: '-v', requireEnv: 'REQUIRE_HAPROXY', debianPackage: 'haproxy' }, name, fn);
}

export interface Balancer {
  url: string;
  config: string;
  output: () => string;
  close: () => Promise<void>;
}

/**
 * The load balancer in front of the replicas, as the README's "Replicas" configures one:
 * round robin per request, health checks on /readyz, idempotent requests (GET, HEAD) retried on
 * another replica when theirs failed or died under them, every answer marked with the replica
 * that gave it (`x-served-by`: r1, r2, …), and tunnels (SSE, WebSocket) kept open.
 */
export async function startHaproxy(backends: string[]): Promise<Balancer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'haproxy-'));
  const port = await freePort();
  const config = [
    'global',
    '  maxconn 2000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 120s',
    '  timeout server 120s',
    '  timeout tunnel 1h',
    '  timeout http-keep-alive 10s',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout 502 503',
    'frontend platform',
    `  bind 127.0.0.1:${port}`,
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-check expect status 200',
    // A POST or PUT that reached a replica may have been applied: never sent twice.
    '  http-request disable-l7-retry unless METH_GET',
    '  http-response set-header x-served-by %[srv_name]',
    ...backends.map((backend, i) => `  server r${i + 1} ${backend} check inter 300ms fall 2 rise 2`),
    '',
  ].join('\n');
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const check = spawnSync(HAPROXY, ['-c', '-q', '-f', file], { encoding: 'utf8' });
  if (check.status !== 0) throw new Error(`haproxy refused its configuration:\n${check.stderr}\n${config}`);
  const child: ChildProcess = spawn(HAPROXY, ['-db', '-f', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const balancer: Balancer = {
    url,
    config,
    output: () => output,
    async close() {
      child.kill('SIGTERM');
      await exited;
      rmSync(dir, { recursive: true, force: true });
    },
  };
  try {
    await waitUntil(
      async () => (await fetch(`${url}/healthz`)).status === 200,
      'haproxy answered',
      30_000,
      () => output,
    );
  } catch (error) {
    await balancer.close();
    throw error;
  }
  return balancer;
}
