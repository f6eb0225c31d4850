import type { EntityManager } from '@mikro-orm/postgresql';
import type { Registry } from '../catalog/registry.entity';
import { imagePrefix } from '../catalog/registry-client';
import type { RegistryService } from '../catalog/registry.service';
import { containerSpec } from '../engines/container-spec';
import type { ImageInspect, RegistryAuth } from '../engines/docker-types';
import { EngineConflictError, EngineRequestError, isEngineUnreachable } from '../engines/engine-errors';
import { defaultExposedPorts } from '../engines/states';
import { DomainError } from '../errors';
import type { Logger } from '../logger';
import type { App, RunError, Service } from './app.entity';
import type { AppRuntime } from './app-runtime';
import { dependencyOrder } from './dependency-order';

export const LABEL_INSTANCE = 'platform.instance';
export const LABEL_APP = 'platform.app';
export const LABEL_SERVICE = 'platform.service';

/**
 * Runs an app's services as containers: one user-defined network per app (links resolve by
 * alias on it), one container per service named after it, started in dependency order. One
 * service that cannot start (image missing, port taken) gets the reason in its `lastError` and
 * the others still start; an unreachable engine stops the run and is written to every service
 * not yet started, then rethrown for the caller to decide (store and answer, or 502).
 */
export class AppRunner {
  constructor(
    private readonly em: EntityManager,
    private readonly runtime: AppRuntime,
    private readonly registries: RegistryService,
    private readonly log: Logger,
  ) {}

  private get docker() {
    return this.runtime.docker;
  }

  async labels(appId: number, serviceId?: number): Promise<Record<string, string>> {
    const labels: Record<string, string> = { [LABEL_INSTANCE]: await this.runtime.instanceId(this.em), [LABEL_APP]: String(appId) };
    if (serviceId !== undefined) labels[LABEL_SERVICE] = String(serviceId);
    return labels;
  }

  /** `platform-app-<id>-<installation>`: unique on an engine shared by installations. */
  async networkName(appId: number): Promise<string> {
    return `platform-app-${appId}-${(await this.runtime.instanceId(this.em)).slice(0, 8)}`;
  }

  /** Marks the services as starting (start-pre), so reads during the run say so. */
  markStarting(services: Service[]): void {
    const now = new Date();
    for (const service of services) service.startingAt = now;
  }

  /** Records an unreachable engine on the app and the services, and clears their starting marks. */
  recordUnreachable(app: App, services: Service[], error: Error): void {
    app.errors = [{ message: error.message }];
    for (const service of services) {
      service.lastError = { code: 502, message: error.message, fields: '' };
      service.startingAt = null;
    }
  }

  /**
   * (Re)creates and starts `services` (all of the app's services must be loaded, with links and
   * volumesFrom populated). Flushes after each service so that reads see the progress.
   */
  async start(app: App, all: Service[], services: Service[]): Promise<void> {
    const chosen = new Set(services.map((s) => s.id));
    const byName = new Map(all.map((s) => [s.name, s]));
    const order = dependencyOrder(all.map((s) => s.name), (name) => needs(byName.get(name)!))
      .map((name) => byName.get(name)!)
      .filter((s) => chosen.has(s.id));
    this.markStarting(order);
    app.errors = [];
    await this.em.flush();
    let pending = [...order];
    try {
      const network = await this.ensureNetwork(app.id);
      for (const service of order) {
        await this.startOne(app.id, service, network);
        pending = pending.filter((s) => s !== service);
        await this.em.flush();
      }
    } catch (error) {
      if (isEngineUnreachable(error)) {
        this.recordUnreachable(app, pending, error);
      } else {
        app.errors = [{ message: error instanceof DomainError ? error.message : 'Unexpected error.' }];
        for (const service of pending) service.startingAt = null;
      }
      await this.em.flush();
      throw error;
    }
  }

  private async ensureNetwork(appId: number): Promise<string> {
    const name = await this.networkName(appId);
    const existing = await this.docker.listNetworks({ labels: await this.labels(appId) });
    if (existing.some((n) => n.Name === name)) return name;
    try {
      await this.docker.createNetwork(name, await this.labels(appId));
    } catch (error) {
      // Made by a concurrent start of the same app.
      if (!(error instanceof EngineConflictError)) throw error;
    }
    return name;
  }

  private async startOne(appId: number, service: Service, network: string): Promise<void> {
    try {
      await this.removeServiceContainers(appId, service.id);
      const image = await this.ensureImage(service.from);
      service.defaultExposedPorts = defaultExposedPorts(image);
      const spec = containerSpec({
        name: service.name,
        image: service.from,
        command: service.command,
        environment: service.environment,
        ports: service.ports,
        expose: service.expose,
        volumes: service.volumes,
        volumesFrom: service.volumesFrom.getItems().map((v) => v.exportedFrom.name),
        links: service.links.getItems().map((l) => ({ service: l.to.name, alias: l.alias })),
        labels: await this.labels(appId, service.id),
        network: { name: network, aliases: [service.name] },
      });
      const created = await this.docker.createContainer(service.name, spec).catch((error: unknown) => {
        if (error instanceof EngineConflictError) {
          throw new EngineConflictError(`a container named "${service.name}" already exists on the engine and is not this service's: rename the service or remove that container`, ['name']);
        }
        throw error;
      });
      await this.docker.startContainer(created.Id);
      service.lastError = null;
    } catch (error) {
      if (isEngineUnreachable(error)) throw error;
      service.lastError = runError(error);
      if (!(error instanceof DomainError)) this.log.error({ err: error, service: service.name }, 'starting a service failed');
    } finally {
      service.startingAt = null;
    }
  }

  /** The image, pulled first only when the engine does not have it. */
  private async ensureImage(ref: string): Promise<ImageInspect> {
    const local = await this.docker.inspectImage(ref).catch((error: unknown) => {
      if (error instanceof DomainError && error.httpStatus === 404) return null;
      throw error;
    });
    if (local) return local;
    await this.docker.pullImage(ref, { auth: await this.pullAuth(ref) });
    return this.docker.inspectImage(ref);
  }

  /** The stored credentials of the registry whose endpoint is the image's host, if any. */
  private async pullAuth(ref: string): Promise<RegistryAuth | undefined> {
    const host = imageHost(ref);
    if (!host) return undefined;
    const match = (await this.registries.list()).find((r: Registry) => imagePrefix(r.endpointUrl).split('/')[0].toLowerCase() === host);
    if (!match) return undefined;
    const credentials = this.registries.credentials(match);
    if (credentials.token) return { identitytoken: credentials.token, serveraddress: host };
    if (credentials.username) return { username: credentials.username, password: credentials.password ?? '', serveraddress: host };
    return undefined;
  }

  async removeServiceContainers(appId: number, serviceId: number): Promise<void> {
    for (const container of await this.docker.listContainers({ all: true, labels: await this.labels(appId, serviceId) })) {
      await this.docker.removeContainer(container.Id, { force: true, removeVolumes: true });
    }
  }

  /** Every container and the network of the app. */
  async removeApp(appId: number): Promise<void> {
    const labels = await this.labels(appId);
    for (const container of await this.docker.listContainers({ all: true, labels })) {
      await this.docker.removeContainer(container.Id, { force: true, removeVolumes: true });
    }
    for (const network of await this.docker.listNetworks({ labels })) await this.docker.removeNetwork(network.Id);
  }
}

/** The names a service must start after. */
export function needs(service: Service): string[] {
  return [...service.links.getItems().map((l) => l.to.name), ...service.volumesFrom.getItems().map((v) => v.exportedFrom.name)];
}

/** `registry.example:5000/team/app:1` → `registry.example:5000`; null for Docker Hub names. */
export function imageHost(ref: string): string | null {
  const first = ref.split('/')[0];
  if (!ref.includes('/') || !(first.includes('.') || first.includes(':') || first === 'localhost')) return null;
  return first.toLowerCase();
}

/** A failure as the service's `errors`: port taken and name clashes are said plainly. */
export function runError(error: unknown): RunError {
  if (error instanceof EngineRequestError && /port is already allocated|address already in use/i.test(error.engineMessage)) {
    return { code: 409, message: `a host port of this service is already in use: ${error.engineMessage}`, fields: 'ports' };
  }
  if (error instanceof DomainError) {
    const fields = error.fields.length ? error.fields : /pulling image/.test(error.message) ? ['from'] : [];
    return { code: error.httpStatus, message: error.message, fields: fields.join(',') };
  }
  return { code: 500, message: 'Unexpected error.', fields: '' };
}
