import type { DockerClient } from '../engines/docker-client';
import { isEngineUnreachable } from '../engines/engine-errors';
import { pinnedFromEngine } from '../history/image-digests';
import type { PinnedImage } from '../history/revision-definition';
import { isBlank } from '../parts/validator';
import type { App, Service } from './app.entity';
import { LABEL_REVISION } from './container-labels';
import { needs, type ContainerRunner } from './container-runner';
import { dependencyOrder } from './dependency-order';
import { asideName, isAside } from './engine-names';
import { awaitHealthy, UnhealthyError, type GatedContainer, type GateOptions } from './health-gate';
import { restartPolicyOf } from './service-definition';
import { runError } from './run-error';

export interface SwitchHooks {
  progress(step: string): Promise<void>;
  /** An old container was stopped to free its host ports: a recovery must start it again. */
  stopped(ids: string[]): Promise<void>;
}

export interface SwitchOutcome {
  pins: PinnedImage[];
  /** The old generation, set aside: removed once the switch is committed. */
  aside: string[];
  /** Set when the new generation failed and was kept (rollbackOnFailure off). */
  failure?: unknown;
}

/** The new generation failed; it was removed and the old one put back (`undone`), or kept. */
export class SwitchFailedError extends Error {
  constructor(
    override readonly cause: unknown,
    readonly undone: boolean,
  ) {
    super(cause instanceof Error ? cause.message : String(cause));
  }
}

/**
 * A health-gated switch of an app's containers to `revision`, service by service in dependency
 * order: the old containers are renamed aside (their network aliases stay, so they keep serving),
 * the new ones made under the canonical names beside them, and only once every new one is healthy
 * may the caller remove the old. A service that publishes a fixed host port cannot run two
 * containers at once: its old ones are stopped just before its new ones start (the window in which
 * that port does not answer), and started again if the switch is undone.
 */
export class AppSwitch {
  constructor(
    private readonly runner: ContainerRunner,
    private readonly docker: DockerClient,
    private readonly gate: GateOptions,
  ) {}

  async run(app: App, services: Service[], revision: number, hooks: SwitchHooks, undoOnFailure: boolean): Promise<SwitchOutcome> {
    const made: GatedContainer[] = [];
    const aside: { id: string; name: string }[] = [];
    const stopped: string[] = [];
    const pins: PinnedImage[] = [];
    // Nothing of the old generation served: a failing new one is no worse, so it is kept (and said).
    let served = false;
    let current: Service | undefined;
    try {
      const project = await this.runner.project(app.id);
      const networks = await this.runner.ensureNetworks(app.id, project, services);
      const byName = new Map(services.map((s) => [s.name, s]));
      const order = dependencyOrder(
        services.map((s) => s.name),
        (name) => needs(byName.get(name)!).filter((n) => byName.has(n)),
      ).map((name) => byName.get(name)!);
      for (const service of order) {
        current = service;
        await hooks.progress(`${service.name}: getting its image`);
        const image = await this.runner.imageFor(service);
        pins.push(pinnedFromEngine(service.name, service.from, image));
        const publishes = service.ports.some((port) => !isBlank(port.host_port));
        const halted: string[] = [];
        for (const container of await this.runner.serviceContainers(app.id, service.id)) {
          const name = container.Names[0]?.replace(/^\//, '') ?? container.Id;
          if (container.Labels[LABEL_REVISION] === String(revision) || isAside(name)) continue;
          await this.docker.renameContainer(container.Id, asideName(name, revision));
          aside.push({ id: container.Id, name });
          if (container.State === 'running') served = true;
          if (publishes && container.State === 'running') halted.push(container.Id);
        }
        if (halted.length) {
          await hooks.stopped(halted);
          for (const id of halted) {
            await this.docker.stopContainer(id);
            stopped.push(id);
          }
        }
        await hooks.progress(`${service.name}: starting its new containers`);
        await this.runner.awaitDependencies(app.id, service, services, revision);
        const ids = await this.runner.makeContainers(app.id, service, { project, networks, all: services, revision }, image);
        made.push(...ids.map((id) => ({ id, service: service.name, restart: restartPolicyOf(service) })));
        service.lastError = null;
      }
      await awaitHealthy(this.docker, made, this.gate, (step) => void hooks.progress(step));
      return { pins, aside: aside.map((a) => a.id) };
    } catch (error) {
      if ((!undoOnFailure || !served) && !isEngineUnreachable(error)) {
        // Kept, as a start that fails is: the service says why, and services after it are untouched.
        if (current)
          current.lastError = error instanceof UnhealthyError ? { code: 502, message: error.message, fields: '' } : runError(error);
        return { pins, aside: aside.map((a) => a.id), failure: error };
      }
      const undone = await undoSwitch(this.docker, this.runner, app.id, revision, aside, stopped).then(
        () => true,
        () => false,
      );
      throw new SwitchFailedError(error, undone);
    }
  }
}

/**
 * The new generation (every container labelled with `revision`, also one made half-way) goes, the
 * old gets its names back and runs again: after a failure, or after the process died mid-switch.
 */
export async function undoSwitch(
  docker: DockerClient,
  runner: ContainerRunner,
  appId: number,
  revision: number,
  aside: { id: string; name: string }[],
  stopped: string[],
): Promise<void> {
  const labels = { ...(await runner.labels(appId)), [LABEL_REVISION]: String(revision) };
  for (const container of await docker.listContainers({ all: true, labels })) {
    await docker.removeContainer(container.Id, { force: true, removeVolumes: true });
  }
  for (const { id, name } of aside) await docker.renameContainer(id, name);
  for (const id of stopped) {
    const state = await docker.inspectContainer(id);
    if (state && !state.State.Running) await docker.startContainer(id);
  }
}

/** The containers of an app set aside by a switch to `revision`, with the names they had. */
export async function asideOf(
  docker: DockerClient,
  runner: ContainerRunner,
  appId: number,
  revision: number,
): Promise<{ id: string; name: string }[]> {
  const suffix = asideName('', revision);
  return (await docker.listContainers({ all: true, labels: await runner.labels(appId) }))
    .map((c) => ({ id: c.Id, name: c.Names[0]?.replace(/^\//, '') ?? '' }))
    .filter((c) => c.name.endsWith(suffix))
    .map((c) => ({ id: c.id, name: c.name.slice(0, -suffix.length) }));
}
