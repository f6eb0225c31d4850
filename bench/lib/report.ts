import { writeFileSync } from 'node:fs';
import type { ScenarioResult } from './types';

const show = (values: Record<string, number | string> | null): string =>
  values
    ? Object.entries(values)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')
    : '-';

/** One line per result: scenario, name, figures, baseline, ratio, target, met. */
export function printTable(results: ScenarioResult[], write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): void {
  const rows = results.map((r) => [
    String(r.scenario),
    r.name,
    show(r.figures),
    show(r.baseline),
    r.ratio === null ? '-' : String(r.ratio),
    r.target,
    r.met === null ? 'skipped' : r.met ? 'MET' : 'MISSED',
  ]);
  const head = ['#', 'scenario', 'figures', 'baseline', 'ratio', 'target', 'met'];
  const widths = head.map((h, i) => Math.min(70, Math.max(h.length, ...rows.map((row) => row[i].length))));
  const line = (cells: string[]) => cells.map((c, i) => c.padEnd(widths[i])).join(' | ');
  write(line(head));
  write(widths.map((w) => '-'.repeat(w)).join('-|-'));
  for (const row of rows) write(line(row));
  for (const r of results) if (r.note) write(`note (${r.name}): ${r.note}`);
}

/**
 * Each curve as a markdown table (the form bench/RESULTS.md keeps): one row per size, one column
 * per figure, the target figure's ratio to the smallest size beside it.
 */
export function printCurves(results: ScenarioResult[], write: (line: string) => void = (line) => process.stdout.write(`${line}\n`)): void {
  for (const r of results) {
    if (!r.curve) continue;
    const { points, unit, method, figure } = r.curve;
    const columns = [...new Set(points.flatMap((p) => Object.keys(p)))].filter((k) => k !== 'size');
    write('');
    write(`### ${r.scenario}. ${r.name}`);
    write('');
    write(
      `${method} Target: ${r.target}: **${r.met === null ? 'not measured' : r.met ? 'met' : 'missed'}**${r.note ? ` (${r.note})` : ''}.`,
    );
    write('');
    write(`| ${unit} | ${columns.join(' | ')} |`);
    write(`| ${['---', ...columns.map(() => '---')].join(' | ')} |`);
    for (const p of points)
      write(
        `| ${p.size.toLocaleString('en')} | ${columns.map((c) => (p[c] === undefined ? '' : c === `${figure}Ratio` ? `**${p[c]}×**` : String(p[c]))).join(' | ')} |`,
      );
  }
}

export function writeResults(file: string, results: ScenarioResult[]): void {
  writeFileSync(file, `${JSON.stringify(results, null, 2)}\n`);
}
