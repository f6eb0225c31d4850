import { execFileSync } from 'node:child_process';
import { createHmac } from 'node:crypto';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { percentiles, throughput } from '../lib/load';
import { sql, type BenchPostgres } from '../lib/postgres';
import { BENCH_TOKEN, startService } from '../lib/service';
import { round, type BenchOptions, type ScenarioResult } from '../lib/types';

const SUBSCRIBERS = 100;
const CHANGES = 30;
const BUDGET_P95_MS = 1000;

/**
 * Scenario 9 (automation). Events out: 100 subscriptions (one receiver, a path each) to service
 * states; a state change is published as the engine follower publishes it (a NOTIFY on the
 * service's database), and each delivery is timed from that NOTIFY to its arrival at the
 * receiver, 30 changes one after another: 3000 deliveries, p50/p95/max. Deploy hooks: calls/s of
 * signed GitHub pings to one hook (verified, recorded, answered), beside GET /healthz's on the
 * same service as a baseline.
 */
export async function automationScenario(pg: BenchPostgres, dataDir: string, options: BenchOptions): Promise<ScenarioResult[]> {
  const databaseUrl = await pg.createDatabase('bench_automation');
  const service = await startService({
    dataDir,
    databaseUrl,
    env: { WEBHOOK_ALLOW_PRIVATE: 'true', HOOK_RATE_LIMIT: '100000000', WEBHOOK_CONCURRENCY: '50', TEMPLATE_REPO_ROOTS: tmpdir() },
  });
  const arrivals = new Map<string, number[]>();
  const receiver = await startReceiver((eventId) => {
    const list = arrivals.get(eventId) ?? [];
    list.push(performance.now());
    arrivals.set(eventId, list);
  });
  const api = async <T>(method: string, path: string, body?: unknown): Promise<T> => {
    const res = await request(`${service.url}${path}`, {
      method,
      headers: { authorization: `Bearer ${BENCH_TOKEN}`, 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    if (res.statusCode >= 300) throw new Error(`${method} ${path}: ${res.statusCode} ${text}`);
    return JSON.parse(text) as T;
  };
  try {
    const port = (receiver.address() as AddressInfo).port;
    for (let i = 0; i < SUBSCRIBERS; i++) {
      await api('POST', '/event_subscriptions', { url: `http://127.0.0.1:${port}/s/${i}`, event_types: ['service.state_changed'] });
    }
    // The service listens for service states once a subscription wants them (told over NOTIFY):
    // warm up until a change gets through, and let every warm-up change reach every subscriber.
    const notify = (subState: string) =>
      sql(databaseUrl, 'select pg_notify($1, $2)', [
        'service_state',
        JSON.stringify({ appId: 1, serviceId: 1, loadState: 'loaded', activeState: 'active', subState, at: new Date().toISOString() }),
      ]);
    for (let i = 0; arrivals.size === 0; i++) {
      await notify(`warm-${i}`);
      await waitUntil(() => arrivals.size > 0, 1000).catch(() => undefined);
    }
    await waitUntil(() => [...arrivals.values()].every((times) => times.length >= SUBSCRIBERS));

    const latencies: number[] = [];
    for (let change = 0; change < CHANGES; change++) {
      const state = {
        appId: 1,
        serviceId: 1,
        loadState: 'loaded',
        activeState: change % 2 ? 'active' : 'inactive',
        subState: `s${change}`,
        at: new Date().toISOString(),
      };
      const before = new Set(arrivals.keys());
      const sent = performance.now();
      await sql(databaseUrl, 'select pg_notify($1, $2)', ['service_state', JSON.stringify(state)]);
      await waitUntil(() => [...arrivals].some(([id, times]) => !before.has(id) && times.length >= SUBSCRIBERS));
      const [, times] = [...arrivals].find(([id]) => !before.has(id))!;
      latencies.push(...times.map((at) => at - sent));
    }
    const { p50, p95 } = percentiles(latencies);

    const made = await makeHook(api);
    const body = JSON.stringify({ zen: 'Keep it logically awesome.', hook_id: 1 });
    const signature = `sha256=${createHmac('sha256', made.secret).update(body).digest('hex')}`;
    const calls = await throughput(
      {
        url: `${service.url}${made.hook.path}`,
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-github-event': 'ping', 'x-hub-signature-256': signature },
        body,
      },
      options,
    );
    const healthz = await throughput({ url: `${service.url}/healthz` }, options);
    return [
      {
        scenario: 9,
        name: `Events out: state change (NOTIFY) to delivery at ${SUBSCRIBERS} subscribers, ${CHANGES} changes`,
        figures: { deliveries: latencies.length, p50Ms: round(p50, 0), p95Ms: round(p95, 0), maxMs: round(Math.max(...latencies), 0) },
        baseline: null,
        ratio: null,
        target: `p95 ≤ ${BUDGET_P95_MS} ms`,
        met: p95 <= BUDGET_P95_MS,
      },
      {
        scenario: 9,
        name: 'Deploy hooks: signed GitHub pings to one hook (verified, recorded, answered)',
        figures: { callsPerS: calls.rps, p50Ms: calls.p50, p99Ms: calls.p99, errors: calls.errors },
        baseline: { healthzPerS: healthz.rps },
        ratio: round(calls.rps / healthz.rps, 2),
        target: 'measured (no target set)',
        met: calls.errors === 0,
      },
    ];
  } finally {
    receiver.close();
    receiver.closeAllConnections();
    await service.stop();
  }
}

/** A template repo (a directory of one template) and its GitHub hook. */
async function makeHook(api: <T>(method: string, path: string, body?: unknown) => Promise<T>) {
  const dir = mkdtempSync(`${tmpdir()}/bench-repo-`);
  writeFileSync(`${dir}/a.pmx`, 'name: A\ndescription: a\ntype: Default\nimages:\n  - name: web\n    source: busybox\n');
  execFileSync('git', ['init', '-q', '-b', 'main'], { cwd: dir });
  execFileSync('git', ['-c', 'user.name=bench', '-c', 'user.email=bench@example.com', 'commit', '-q', '--allow-empty', '-m', 'x'], {
    cwd: dir,
  });
  const repo = await api<{ id: number }>('POST', '/template_repos', { name: dir });
  return api<{ secret: string; hook: { path: string } }>('POST', `/template_repos/${repo.id}/hooks`, { kind: 'github' });
}

function startReceiver(onEvent: (eventId: string) => void): Promise<Server> {
  const server = createServer((req, res) => {
    const id = String(req.headers['x-platform-delivery'] ?? '');
    req.resume();
    req.on('end', () => {
      onEvent(id);
      res.writeHead(200).end('ok');
    });
  });
  server.keepAliveTimeout = 10_000;
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve(server)));
}

async function waitUntil(check: () => boolean | Promise<boolean>, timeoutMs = 60_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('automation bench: gave up waiting');
    await new Promise((resolve) => setTimeout(resolve, 5));
  }
}
