import { setTimeout as sleep } from 'node:timers/promises';
import type { DockerClient } from '../engines/docker-client';
import type { ContainerInspect } from '../engines/docker-types';

export interface GateOptions {
  /** How long a container without a health check must keep running. */
  graceMs: number;
  /** How long a health check may take to say healthy. */
  timeoutMs: number;
}

export interface GatedContainer {
  id: string;
  service: string;
  /** Its restart policy: a one-shot container (no, on-failure) that exits 0 has done its work. */
  restart: string | null;
}

/** Why a new container did not get there, naming its service. */
export class UnhealthyError extends Error {}

const POLL_MS = 250;

/**
 * Resolves once every container is `healthy` (its image's or its compose health check), or has
 * run past the grace period without a restart, or (one-shot) exited 0. Rejects with the first
 * that exits, restarts, turns unhealthy or runs out of time.
 */
export async function awaitHealthy(
  docker: DockerClient,
  containers: readonly GatedContainer[],
  options: GateOptions,
  onWaiting?: (what: string) => void,
): Promise<void> {
  const until = Date.now() + Math.max(options.timeoutMs, options.graceMs);
  const pending = new Map(containers.map((c) => [c.id, c]));
  // Timed by this process's clock from when it first saw each one running: the engine's may differ.
  const runningSince = new Map<string, number>();
  for (;;) {
    for (const container of [...pending.values()]) {
      const inspect = await docker.inspectContainer(container.id);
      if (inspect?.State.Running && !runningSince.has(container.id)) runningSince.set(container.id, Date.now());
      const verdict = judge(inspect, container, options.graceMs, runningSince.get(container.id));
      if (verdict === true) pending.delete(container.id);
      else if (verdict !== null) throw new UnhealthyError(`${container.service}: ${verdict}`);
    }
    if (pending.size === 0) return;
    const waiting = [...new Set([...pending.values()].map((c) => c.service))];
    onWaiting?.(`waiting until ${waiting.join(', ')} ${waiting.length === 1 ? 'is' : 'are'} healthy`);
    if (Date.now() > until) {
      const states = await Promise.all(
        [...pending.values()].map(async (c) => `${c.service} is ${stateOf(await docker.inspectContainer(c.id))}`),
      );
      throw new UnhealthyError(
        `not healthy within ${Math.round(Math.max(options.timeoutMs, options.graceMs) / 1000)} s (${states.join('; ')})`,
      );
    }
    await sleep(POLL_MS);
  }
}

/** true: there; null: not yet; a text: it will not get there, and why. */
function judge(
  inspect: ContainerInspect | null,
  container: GatedContainer,
  graceMs: number,
  since: number | undefined,
): true | null | string {
  if (!inspect) return 'its container is gone';
  const state = inspect.State;
  if (state.Status === 'exited' || state.Status === 'dead') {
    const oneShot = container.restart === null || container.restart === 'no' || container.restart.startsWith('on-failure');
    if (state.ExitCode === 0 && oneShot && !state.Health) return true;
    return `exited with code ${state.ExitCode}${state.Error ? ` (${state.Error})` : ''}`;
  }
  if (state.Restarting || inspect.RestartCount > 0) return `keeps restarting (exit code ${state.ExitCode})`;
  if (state.Health) {
    if (state.Health.Status === 'healthy') return true;
    if (state.Health.Status === 'unhealthy') {
      const last = state.Health.Log?.at(-1);
      return `is unhealthy${last ? ` (its health check exited ${last.ExitCode}: ${last.Output.trim().slice(0, 200)})` : ''}`;
    }
    return null;
  }
  if (!state.Running || since === undefined) return null;
  return Date.now() - since >= graceMs ? true : null;
}

function stateOf(inspect: ContainerInspect | null): string {
  if (!inspect) return 'gone';
  return inspect.State.Health ? `${inspect.State.Status}, ${inspect.State.Health.Status}` : inspect.State.Status;
}
