import { curveResult, load1, point, rssWatch } from '../lib/curve';
import { containersWith, docker } from '../lib/docker';
import { get, send } from '../lib/http';
import { ipcClient } from '../lib/ipc';
import type { BenchPostgres } from '../lib/postgres';
import { sql } from '../lib/postgres';
import { startTs } from '../lib/processes';
import { BENCH_TOKEN, startService, type RunningService } from '../lib/service';
import type { SubscribersStats } from '../lib/subscribers-child';
import { migrate } from '../lib/seed';
import { round, type CurvePoint, type ScenarioResult } from '../lib/types';

const IMAGE = 'platform-test/busybox:latest';
const CYCLES = 5;

export interface SubscribersCurveOptions {
  sizes: number[];
}

/**
 * Scenario 15: 10 / 100 / 1,000 clients of `serviceStateChanged(appId)` selecting the event and
 * the service as it is now (as the web console does), half over SSE and half over WebSocket, in
 * their own process, while a real container of a real app is stopped and started (each cycle:
 * exited, then running). Latency: from the engine's time of the change to the client.
 */
export async function subscribersCurve(pg: BenchPostgres, dataDir: string, options: SubscribersCurveOptions): Promise<ScenarioResult[]> {
  const url = await pg.createDatabase('bench_subscribers');
  await (await migrate(url)).close(true);
  const service = await startService({ dataDir, databaseUrl: url });
  const clients = startTs('bench/lib/subscribers-child.ts', {}, { ipc: true });
  const call = ipcClient(clients);
  const points: CurvePoint[] = [];
  let appId: number | undefined;
  try {
    const app = (await send('POST', `${service.url}/apps`, {
      compose_yaml: `services:\n  ticker:\n    image: ${IMAGE}\n    command: ["sleep", "3600"]\n`,
      name: 'bench-subscribers',
    })) as { id: number };
    appId = app.id;
    await untilRunning(service, appId);
    const [{ id: instance }] = await sql<{ id: string }>(url, 'select id from platform_instance');
    const [container] = await containersWith([`platform.app=${appId}`, `platform.instance=${instance}`]);
    const cycle = async () => {
      await docker('POST', `/containers/${container}/stop?t=0`);
      await docker('POST', `/containers/${container}/start`);
    };
    for (const size of options.sizes) {
      await call('connect', { url: service.url, token: BENCH_TOKEN, appId, count: size });
      // Subscribed once every client has had an event: cycle until then.
      for (let i = 0; i < 20; i++) {
        await cycle();
        const settled = await quiet(call);
        if (Math.min(...settled.received) > 0) break;
      }
      const before = await quiet(call);
      await call('mark');
      const rss = rssWatch(service.child.pid);
      for (let i = 0; i < CYCLES; i++) await cycle();
      const after = await quiet(call);
      const got = after.received.map((n, i) => n - before.received[i]);
      const most = Math.max(...got);
      // Each cycle is two changes (exited, then running) every client must see.
      const expected = 2 * CYCLES;
      const sorted = [...after.latencies].sort((a, b) => a - b);
      const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)] ?? NaN;
      points.push(
        point(size, {
          events: sorted.length,
          eventsPerClient: most,
          clientsShort: got.filter((n) => n < expected).length,
          dropped: after.dropped,
          p50Ms: at(0.5),
          p95Ms: at(0.95),
          p99Ms: at(0.99),
          rssPeakMb: rss.peak(),
          load: load1(),
        }),
      );
      if (after.errors.length) throw new Error(`subscribers at ${size}: ${after.errors.join(' | ')}`);
    }
  } finally {
    await call('close').catch(() => undefined);
    await clients.stop();
    if (appId !== undefined) await send('DELETE', `${service.url}/apps/${appId}`, undefined, 204).catch(() => undefined);
    await service.stop();
  }
  return [
    curveResult({
      scenario: 15,
      name: 'Subscribers: serviceStateChanged over SSE and WebSocket while a container stops and starts',
      unit: 'clients (half SSE, half WebSocket)',
      method: `One app of one busybox container; the clients in their own process, connected 100 at a time (each batch taken by the server before the next: 500 WebSocket clients at once overran graphql-ws's 3 s connection_init timeout, 4408), subscribed (a warm-up cycle reached every one), then ${CYCLES} cycles of docker stop -t 0 / start through the engine API; every event of every client timed from the engine's time of the change to its arrival. "clientsShort": clients that got fewer than the ${2 * CYCLES} changes (exited, running per cycle).`,
      points,
      figure: 'p99Ms',
      target: 'p99 ≤ 500 ms at the largest size; no client drops or misses an event',
      check: (p) => p[p.length - 1].p99Ms <= 500 && p.every((x) => x.dropped === 0 && x.clientsShort === 0),
    }),
  ];
}

/** The clients' counts once no client has received anything for 1 s (at most 60 s). */
async function quiet(call: ReturnType<typeof ipcClient>): Promise<SubscribersStats> {
  let last = await call<SubscribersStats>('stats');
  const until = performance.now() + 60_000;
  while (performance.now() < until) {
    await new Promise((resolve) => setTimeout(resolve, 1000));
    const now = await call<SubscribersStats>('stats');
    const same = now.received.every((n, i) => n === last.received[i]);
    last = now;
    if (same) return now;
  }
  return last;
}

/** Waits (polling every 200 ms, at most 120 s) until every service of the app runs. */
export async function untilRunning(service: RunningService, appId: number, timeoutMs = 120_000): Promise<void> {
  const until = performance.now() + timeoutMs;
  for (;;) {
    const services = (await get(`${service.url}/apps/${appId}/services`, true)) as {
      active_state: string;
      sub_state: string;
      errors?: unknown;
    }[];
    if (services.length > 0 && services.every((s) => s.active_state === 'active' && s.sub_state === 'running')) return;
    if (performance.now() > until)
      throw new Error(`app ${appId}: not running within ${timeoutMs} ms: ${JSON.stringify(services).slice(0, 300)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

export const roundMs = (ms: number): number => round(ms, 1);
