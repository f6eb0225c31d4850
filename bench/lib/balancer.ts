import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { freePort } from '../../src/net/free-port';

export interface RunningBalancer {
  url: string;
  stop(): Promise<void>;
}

/**
 * Debian's haproxy in front of `backends` (host:port), configured as the README's "Replicas"
 * section and test/helpers/haproxy.ts do: round robin per request, health checks on /readyz,
 * keep-alive to the replicas. Logging off: the bench measures the path, not haproxy's logs.
 */
export async function startBalancer(backends: string[]): Promise<RunningBalancer> {
  const dir = mkdtempSync(path.join(tmpdir(), 'bench-haproxy-'));
  const port = await freePort();
  const config = [
    'global',
    '  maxconn 4000',
    'defaults',
    '  mode http',
    '  timeout connect 2s',
    '  timeout client 60s',
    '  timeout server 60s',
    '  timeout http-keep-alive 10s',
    '  retries 3',
    '  option redispatch 1',
    '  retry-on conn-failure empty-response response-timeout',
    'frontend platform',
    `  bind 127.0.0.1:${port}`,
    '  default_backend replicas',
    'backend replicas',
    '  balance roundrobin',
    '  option httpchk GET /readyz',
    '  http-request disable-l7-retry unless METH_GET',
    ...backends.map((backend, i) => `  server r${i + 1} ${backend} check inter 1s`),
    '',
  ].join('\n');
  const file = path.join(dir, 'haproxy.cfg');
  writeFileSync(file, config);
  const child = spawn('/usr/sbin/haproxy', ['-db', '-f', file], { stdio: ['ignore', 'ignore', 'inherit'] });
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const url = `http://127.0.0.1:${port}`;
  const stop = async () => {
    child.kill('SIGTERM');
    await exited;
    rmSync(dir, { recursive: true, force: true });
  };
  // Ready when it answers (the replicas already run, so haproxy starts them as up).
  const until = Date.now() + 30_000;
  for (;;) {
    const status = await request(`${url}/healthz`).then(
      async (res) => (await res.body.dump(), res.statusCode),
      () => 0,
    );
    if (status === 200) break;
    if (Date.now() > until) {
      await stop();
      throw new Error(`haproxy in front of ${backends.join(', ')} did not answer`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return { url, stop };
}
