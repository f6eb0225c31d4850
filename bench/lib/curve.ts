import { readFileSync, writeFileSync } from 'node:fs';
import { loadavg } from 'node:os';
import { percentiles } from './load';
import { round, type Curve, type CurvePoint, type ScenarioResult } from './types';

/**
 * The curves (scenarios 12–17): one operation measured at 3–4 sizes in one run, each size
 * reported beside the smallest as a ratio. Each size's point carries p50/p95, the peak RSS of the
 * processes that took part while it was measured, and the load average when it was taken.
 */

/** Times `run` `count` times after `warmup` untimed calls, one at a time: p50/p95 in ms. */
export async function timed(run: () => Promise<unknown>, count: number, warmup = 3): Promise<{ p50: number; p95: number; n: number }> {
  const samples: number[] = [];
  for (let i = 0; i < warmup + count; i++) {
    const started = performance.now();
    await run();
    if (i >= warmup) samples.push(performance.now() - started);
  }
  return { ...percentiles(samples), n: samples.length };
}

/**
 * Peak RSS (MB) of a process from now on: Linux keeps the high-water mark (VmHWM) per process,
 * and writing 5 to /proc/<pid>/clear_refs resets it to the current RSS. `peak()` reads it.
 * Where the reset is not allowed, the peak is the process's since it started (said in `reset`).
 */
export function rssWatch(pid: number): { reset: boolean; peak(): number; now(): number } {
  let reset = true;
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, '5');
  } catch {
    reset = false;
  }
  const field = (name: string) => Number(new RegExp(`${name}:\\s+(\\d+) kB`).exec(readFileSync(`/proc/${pid}/status`, 'utf8'))?.[1]) / 1024;
  return { reset, peak: () => round(field('VmHWM')), now: () => round(field('VmRSS')) };
}

export const load1 = (): number => round(loadavg()[0], 2);

/**
 * A curve's result row: the points as measured, and the ratio of the largest size's `figure` to
 * the smallest's. `check` says whether the target is met from the points.
 */
export function curveResult(options: {
  scenario: number;
  name: string;
  unit: string;
  method: string;
  points: CurvePoint[];
  figure: string;
  target: string;
  check: (points: CurvePoint[], ratio: number) => boolean;
  note?: string;
}): ScenarioResult {
  const { points, figure } = options;
  const first = points[0];
  const last = points[points.length - 1];
  const ratio = first && last && first[figure] ? round(last[figure] / first[figure], 2) : null;
  for (const point of points) if (first?.[figure]) point[`${figure}Ratio`] = round(point[figure] / first[figure], 2);
  const curve: Curve = { unit: options.unit, method: options.method, figure, points };
  return {
    scenario: options.scenario,
    name: options.name,
    figures: last ? { size: last.size, ...Object.fromEntries(Object.entries(last).filter(([k]) => k !== 'size')) } : {},
    baseline: first ? { size: first.size, [figure]: first[figure] } : null,
    ratio,
    target: options.target,
    met: points.length > 0 && ratio !== null ? options.check(points, ratio) : null,
    curve,
    ...(options.note ? { note: options.note } : {}),
  };
}

/** A point's figures, rounded for the report. */
export function point(size: number, figures: Record<string, number>): CurvePoint {
  return { size, ...Object.fromEntries(Object.entries(figures).map(([k, v]) => [k, round(v, 2)])) };
}
