import { curveResult, load1, point, rssWatch, timed } from '../lib/curve';
import { get, send } from '../lib/http';
import type { BenchPostgres } from '../lib/postgres';
import { migrate } from '../lib/seed';
import { startService, type RunningService } from '../lib/service';
import type { CurvePoint, ScenarioResult } from '../lib/types';
import { untilRunning } from './subscribers-curve';

const IMAGE = 'platform-test/busybox:latest';

interface Entry {
  cursor: string;
  message: string;
}

export interface JournalsCurveOptions {
  sizes: number[];
  count: number;
}

/**
 * Scenario 16: an app whose one container has written N lines (busybox `seq`, each line
 * "line <n>", then "done"), read through interface A: the app journal's last page (no cursor:
 * the last 1,000 lines), a poll with the last line's cursor (nothing new), a page from a cursor
 * in the middle, and the service's log tail (`limit=100`). The engine keeps the log (json-file);
 * a read that needs the whole log to show its end costs time in proportion to it.
 */
export async function journalsCurve(pg: BenchPostgres, dataDir: string, options: JournalsCurveOptions): Promise<ScenarioResult[]> {
  const url = await pg.createDatabase('bench_journals');
  await (await migrate(url)).close(true);
  const service = await startService({ dataDir, databaseUrl: url });
  const apps: number[] = [];
  const points: Record<'last' | 'poll' | 'middle' | 'tail', CurvePoint[]> = { last: [], poll: [], middle: [], tail: [] };
  try {
    for (const size of options.sizes) {
      const app = (await send('POST', `${service.url}/apps`, {
        compose_yaml: `services:\n  writer:\n    image: ${IMAGE}\n    command: ["sh", "-c", "seq 1 ${size} | sed 's/^/line /'; echo done; exec sleep 3600"]\n`,
        name: `bench-journal-${size}`,
      })) as { id: number };
      apps.push(app.id);
      await untilRunning(service, app.id);
      const [writer] = (await get(`${service.url}/apps/${app.id}/services`, true)) as { id: number }[];
      const journal = `${service.url}/apps/${app.id}/journal`;
      const tail = `${service.url}/apps/${app.id}/services/${writer.id}/journal?limit=100`;
      const last = await untilWritten(service, `${service.url}/apps/${app.id}/services/${writer.id}/journal?limit=1`);
      const [first] = (await get(`${journal}?since=1970-01-01T00:00:00Z&limit=1`, true)) as Entry[];
      const middle = midpoint(first.cursor, last.cursor);
      const rss = rssWatch(service.child.pid);
      const cases = [
        ['last', () => checked(journal, Math.min(1000, size + 1), 'done')],
        ['poll', () => checked(`${journal}?cursor=${encodeURIComponent(last.cursor)}`, 0)],
        ['middle', () => checked(`${journal}?cursor=${encodeURIComponent(middle)}&limit=1000`, 1)],
        ['tail', () => checked(tail, Math.min(100, size + 1), 'done')],
      ] as const;
      for (const [key, read] of cases) {
        const t = await timed(read, options.count);
        points[key].push(point(size, { p50Ms: t.p50, p95Ms: t.p95, rssPeakMb: rss.peak(), load: load1() }));
      }
    }
  } finally {
    for (const id of apps) await send('DELETE', `${service.url}/apps/${id}`, undefined, 204).catch(() => undefined);
    await service.stop();
  }
  const unit = 'lines in the log';
  const method = `One app per size, its container's json-file log holding the lines; ${options.count} requests timed after 3 untimed, one at a time. RSS: the service's peak over the size's four reads.`;
  const target = 'p95 ≤ 100 ms at the largest size (no whole-log reads)';
  const check = (p: CurvePoint[]) => p[p.length - 1].p95Ms <= 100;
  return [
    curveResult({
      scenario: 16,
      name: "Journals: the app journal's last page (1,000 lines)",
      unit,
      method,
      points: points.last,
      figure: 'p95Ms',
      target,
      check,
    }),
    curveResult({
      scenario: 16,
      name: 'Journals: a poll with the last cursor (nothing new)',
      unit,
      method,
      points: points.poll,
      figure: 'p95Ms',
      target,
      check,
    }),
    curveResult({
      scenario: 16,
      name: 'Journals: a page of 1,000 lines after a cursor in the middle',
      unit,
      method,
      points: points.middle,
      figure: 'p95Ms',
      target: '(reported: a page from the middle reads what follows the cursor)',
      check: () => true,
    }),
    curveResult({
      scenario: 16,
      name: "Journals: a service's log tail (limit=100)",
      unit,
      method,
      points: points.tail,
      figure: 'p95Ms',
      target,
      check,
    }),
  ];
}

/** The journal answers `length` entries, the last being `lastMessage` when given. */
async function checked(url: string, length: number, lastMessage?: string): Promise<void> {
  const entries = (await get(url, true)) as Entry[];
  if (entries.length < length || (lastMessage && entries[entries.length - 1]?.message !== lastMessage))
    throw new Error(`${url}: ${entries.length} entries (wanted ${length}), last ${JSON.stringify(entries[entries.length - 1])}`);
}

/** Polls the service's last line until the container has written "done" (at most 10 minutes). */
async function untilWritten(service: RunningService, url: string): Promise<Entry> {
  const until = performance.now() + 600_000;
  for (;;) {
    const [last] = (await get(url, true)) as Entry[];
    if (last?.message === 'done') return last;
    if (service.child.process.exitCode !== null) throw new Error('the service exited');
    if (performance.now() > until) throw new Error(`${url}: the container did not finish writing`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/** The RFC 3339 time halfway between two engine cursors (nanosecond text). */
function midpoint(a: string, b: string): string {
  const nanos = (t: string) => {
    const [, whole, fraction = ''] = /^(.*T\d\d:\d\d:\d\d)(?:\.(\d+))?Z$/.exec(t) ?? [];
    return BigInt(Date.parse(`${whole}Z`)) * 1_000_000n + BigInt(fraction.padEnd(9, '0').slice(0, 9));
  };
  const mid = (nanos(a) + nanos(b)) / 2n;
  const ms = Number(mid / 1_000_000n);
  return `${new Date(ms).toISOString().slice(0, 19)}.${String(mid % 1_000_000_000n).padStart(9, '0')}Z`;
}
