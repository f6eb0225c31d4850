/** One row of bench/results.json. Figures and baselines are flat name → number maps. */
export interface ScenarioResult {
  /** The scenario number (1–5). */
  scenario: number;
  name: string;
  figures: Record<string, number | string>;
  baseline: Record<string, number | string> | null;
  /** Subject over baseline, in the unit `target` names; null when skipped. */
  ratio: number | null;
  target: string;
  /** null when the scenario could not run here (see `note`). */
  met: boolean | null;
  note?: string;
  /** A scale curve (scenarios 12–17): every size measured, in order. */
  curve?: Curve;
}

/** One size of a curve: `size` and its figures (p50Ms, p95Ms, rssMb, load…). */
export type CurvePoint = { size: number } & Record<string, number>;

export interface Curve {
  /** What a size counts (apps, templates, agents, clients, lines). */
  unit: string;
  /** Warm-up, repetitions, what is timed from where. */
  method: string;
  /** The figure the target compares across sizes (its ratio to the smallest size is `<figure>Ratio`). */
  figure: string;
  points: CurvePoint[];
}

export interface BenchOptions {
  /** Seconds per autocannon measurement. */
  duration: number;
  connections: number;
  /** Templates for the search scenario. */
  searchTemplates: number;
  agents: number;
  agentLatencyMs: number;
  /** --full: the curves' larger sizes and more repetitions (longer than the 15-minute budget). */
  full: boolean;
}

export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;
