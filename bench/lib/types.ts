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
}

export interface BenchOptions {
  /** Seconds per autocannon measurement. */
  duration: number;
  connections: number;
  /** Templates for the search scenario. */
  searchTemplates: number;
  agents: number;
  agentLatencyMs: number;
}

export const round = (value: number, digits = 1): number => Math.round(value * 10 ** digits) / 10 ** digits;
