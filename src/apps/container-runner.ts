import type { EntityManager } from '@mikro-orm/postgresql';
import type { Registry } from '../catalog/registry.entity';
import { imagePrefix } from '../catalog/registry-client';
import type { RegistryService } from '../catalog/registry.service';
import { ContainerLauncher } from '../engines/container-launcher';
import type { ContainerInspect, ContainerSummary, ImageInspect, RegistryAuth } from '../engines/docker-types';
import { EngineConflictError, EngineRequestError, isEngineUnreachable } from '../engines/engine-errors';
import { defaultExposedPorts } from '../engines/states';
import { ConflictError, DependencyFailedError, DomainError, NotFoundError, ValidationError } from '../errors';
import { orNull } from '../engines/docker-http';
import type { Logger } from '../logger';
import type { App, Service } from './app.entity';
import type { EngineRuntime } from './engine-runtime';
import type { PreparedBuilds } from './image-builds';
import { dependencyOrder } from './dependency-order';
import { linkEnvironment } from '../parts/link-env';
import { containerName, isAside, projectName, scopedName } from './engine-names';
import { volumeSourceKind } from '../parts/names';
import type { AppNetwork } from './service-options';
import { LABEL_REPLICA } from './service-view';
import { LABEL_APP, LABEL_INSTANCE, LABEL_REVISION, LABEL_SERVICE, LABEL_VOLUME } from './container-labels';
import { runError } from './run-error';
import { restartPolicyOf } from './service-definition';

/** A service that cannot start keeps why in `lastError` and the rest still start; an unreachable engine stops the run. */
export class ContainerRunner {
  constructor(
    private readonly em: EntityManager,
    private readonly runtime: EngineRuntime,
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

  async project(appId: number): Promise<string> {
    return projectName(appId, await this.runtime.instanceId(this.em));
  }

  /** Start-pre, so reads during the run say so. */
  markStarting(services: Service[]): void {
    const now = new Date();
    for (const service of services) service.startingAt = now;
  }

  recordUnreachable(app: App, services: Service[], error: Error): void {
    app.errors = [{ message: error.message }];
    for (const service of services) {
      service.lastError = { code: 502, message: error.message, fields: '' };
      service.startingAt = null;
    }
  }

  /** `all` loaded with links and volumesFrom; flushes after each service so reads see progress. Builds first, as compose. */
  async start(app: App, all: Service[], services: Service[], builds?: PreparedBuilds, run: RunObserver = {}): Promise<void> {
    // One start of an app at a time, in this process and across replicas.
    return this.runtime.starts.exclusive(app.id, () => this.run(app, all, services, builds, run));
  }

  private async run(app: App, all: Service[], services: Service[], builds?: PreparedBuilds, run: RunObserver = {}): Promise<void> {
    const chosen = new Set(services.map((s) => s.id));
    const byName = new Map(all.map((s) => [s.name, s]));
    const order = dependencyOrder(
      all.map((s) => s.name),
      (name) => needs(byName.get(name)!),
    )
      .map((name) => byName.get(name)!)
      .filter((s) => chosen.has(s.id));
    this.markStarting(order);
    app.errors = [];
    await this.em.flush();
    let pending = [...order];
    try {
      const project = await this.project(app.id);
      for (const service of builds ? order : []) {
        if (!builds!.has(service)) continue;
        if (!(await builds!.run(this.em, this.runtime, service))) pending = pending.filter((s) => s !== service);
        await this.em.flush();
      }
      const networks = await this.ensureNetworks(app.id, project, all);
      for (const service of order) {
        if (!pending.includes(service)) continue;
        await this.startOne(app.id, service, { project, networks, all, revision: run.revision }, run);
        pending = pending.filter((s) => s !== service);
        await this.em.flush();
      }
    } catch (error) {
      if (isEngineUnreachable(error)) {
        this.recordUnreachable(app, pending, error);
      } else {
        // A network that could not be made (an exhausted address pool) stops every service still to start.
        const message = error instanceof DomainError ? error.message : 'Unexpected error.';
        app.errors = [{ message }];
        for (const service of pending) {
          service.startingAt = null;
          service.lastError = runError(error);
        }
      }
      await this.em.flush();
      throw error;
    }
  }

  async ensureNetworks(appId: number, project: string, all: Service[]): Promise<Map<string, string>> {
    const wanted = new Map<string, AppNetwork>([['default', { name: 'default', aliases: [] }]]);
    for (const service of all) for (const network of service.options?.networks ?? []) wanted.set(network.name, network);
    const labels = await this.labels(appId);
    const existing = new Set((await this.docker.listNetworks({ labels })).map((n) => n.Name));
    const names = new Map<string, string>();
    for (const [key, network] of wanted) {
      if (network.external) {
        names.set(key, network.external);
        continue;
      }
      const name = key === 'default' ? project : scopedName(project, key);
      names.set(key, name);
      if (existing.has(name)) continue;
      try {
        if (network.ipam) await this.createWithSubnets(name, labels, key, network);
        else await this.runtime.networkPool.create(this.docker, name, labels, { internal: network.internal ?? false });
      } catch (error) {
        // Made by a concurrent start of the same app.
        if (!(error instanceof EngineConflictError)) throw error;
      }
    }
    return names;
  }

  /** Compose's own subnets bypass the pool, so the engine may refuse an overlap (another copy of the app): a 409. */
  private async createWithSubnets(name: string, labels: Record<string, string>, key: string, network: AppNetwork): Promise<void> {
    try {
      await this.docker.createNetwork(name, labels, 'bridge', { internal: network.internal ?? false, ipam: network.ipam });
    } catch (error) {
      if (error instanceof EngineRequestError && /overlap/i.test(error.engineMessage)) {
        throw new ConflictError(
          `networks.${key}: the subnet ${network.ipam!.map((c) => c.Subnet).join(', ')} overlaps a network the engine has (another copy of this app?): ${error.engineMessage}`,
          ['networks'],
        );
      }
      throw error;
    }
  }

  private async startOne(appId: number, service: Service, ctx: StartContext, run: RunObserver): Promise<void> {
    try {
      await this.removeServiceContainers(appId, service.id);
      await this.awaitDependencies(appId, service, ctx.all, ctx.revision);
      const image = await this.imageFor(service);
      run.onImage?.(service, image);
      await this.makeContainers(appId, service, ctx, image);
      service.lastError = null;
    } catch (error) {
      if (isEngineUnreachable(error)) throw error;
      service.lastError = runError(error);
      if (!(error instanceof DomainError)) this.log.error({ err: error, service: service.name }, 'starting a service failed');
    } finally {
      service.startingAt = null;
    }
  }

  /** Makes and starts the service's containers (each replica) beside whatever it has; their ids. */
  async makeContainers(appId: number, service: Service, ctx: StartContext, image: ImageInspect): Promise<string[]> {
    service.defaultExposedPorts = defaultExposedPorts(image);
    const options = service.options ?? {};
    // An internal network is joined last: published ports go through the network the container is made on.
    const joined = [...(options.networks?.length ? options.networks : [{ name: 'default', aliases: [] } as AppNetwork])]
      .sort((a, b) => Number(a.internal ?? false) - Number(b.internal ?? false))
      .map((n) => ({
        name: ctx.networks.get(n.name)!,
        aliases: [...new Set([service.name, ...n.aliases])],
        ...(n.ipv4Address ? { ipv4Address: n.ipv4Address } : {}),
      }));
    const [primary, ...others] = joined;
    const replicas = options.replicas ?? 1;
    const made: string[] = [];
    for (let replica = 1; replica <= replicas; replica += 1) {
      const name = containerName(ctx.project, service.name, replica);
      const created = await this.launcher
        .create({
          name,
          image: imageReferenceOf(service),
          command: service.command,
          environment: service.environment,
          extraEnvironment: await this.linkVariables(appId, name, service, ctx.revision),
          unsetEnvironment: options.unsetEnvironment,
          ports: service.ports,
          expose: service.expose,
          volumes: await this.volumes(appId, ctx.project, service),
          volumesFrom: service.volumesFrom
            .getItems()
            .map(
              (v) =>
                `${containerName(ctx.project, v.exportedFrom.name)}${options.readOnlyVolumesFrom?.includes(v.exportedFrom.name) ? ':ro' : ''}`,
            ),
          links: service.links.getItems().map((l) => ({ service: containerName(ctx.project, l.to.name), alias: l.alias })),
          labels: {
            ...(await this.labels(appId, service.id)),
            [LABEL_REPLICA]: String(replica),
            ...(ctx.revision !== undefined ? { [LABEL_REVISION]: String(ctx.revision) } : {}),
          },
          network: primary,
          restart: restartPolicyOf(service),
          engine: options.engine,
        })
        .catch((error: unknown) => {
          if (error instanceof EngineConflictError) {
            throw new EngineConflictError(
              `a container named "${name}" already exists on the engine and is not this service's: remove that container`,
              ['name'],
            );
          }
          throw error;
        });
      made.push(created.Id);
      for (const network of others) await this.docker.connectNetwork(network.name, created.Id, network.aliases, network.ipv4Address);
      if (options.files?.length) await this.docker.putFiles(created.Id, options.files);
      await this.docker.startContainer(created.Id);
    }
    return made;
  }

  /** From each linked service's first container, already started: links are dependencies. */
  private async linkVariables(appId: number, parent: string, service: Service, revision?: number): Promise<string[]> {
    const env: string[] = [];
    for (const link of service.links.getItems()) {
      const target = await this.firstContainer(appId, link.to.id, revision);
      if (!target) continue;
      const ip =
        Object.values(target.NetworkSettings.Networks ?? {})
          .map((n) => n.IPAddress)
          .find(Boolean) ?? '';
      env.push(...linkEnvironment(link.alias, parent, target, ip));
    }
    return env;
  }

  /** During a switch, the new generation's (`revision`); never one set aside. */
  private async firstContainer(appId: number, serviceId: number, revision?: number): Promise<ContainerInspect | null> {
    const containers = (await this.serviceContainers(appId, serviceId)).filter((c) => !c.Names.some(isAside));
    const first = containers.find((c) => revision !== undefined && c.Labels[LABEL_REVISION] === String(revision)) ?? containers[0];
    return first ? this.docker.inspectContainer(first.Id) : null;
  }

  async serviceContainers(appId: number, serviceId: number): Promise<ContainerSummary[]> {
    return this.docker.listContainers({ all: true, labels: await this.labels(appId, serviceId) });
  }

  /** An external volume must exist: the engine would make an empty one in silence, which compose refuses. */
  private async volumes(appId: number, project: string, service: Service): Promise<Service['volumes']> {
    const external = new Set(service.options?.externalVolumes ?? []);
    const result: Service['volumes'] = [];
    for (const volume of service.volumes) {
      if (volumeSourceKind(volume.host_path) !== 'named') {
        result.push(volume);
        continue;
      }
      if (external.has(volume.host_path!.trim())) {
        const declared = volume.host_path!.trim();
        const name = service.options?.volumeNames?.[declared] ?? declared;
        if (!(await this.docker.inspectVolume(name))) {
          throw new NotFoundError(
            `the external volume "${name}"${name === declared ? '' : ` (volumes.${declared})`} does not exist on the engine: create it first (docker volume create ${name})`,
            ['volumes'],
          );
        }
        result.push({ ...volume, host_path: name });
        continue;
      }
      const name = scopedName(project, volume.host_path!.trim());
      await this.docker.createVolume(name, { ...(await this.labels(appId)), [LABEL_VOLUME]: volume.host_path!.trim() });
      result.push({ ...volume, host_path: name });
    }
    return result;
  }

  async awaitDependencies(appId: number, service: Service, all: Service[], revision?: number): Promise<void> {
    for (const dependency of service.options?.dependsOn ?? []) {
      if (dependency.condition === 'service_started') continue;
      const target = all.find((s) => s.name === dependency.service);
      if (!target) continue;
      const deadline = Date.now() + this.runtime.dependencyTimeoutMs;
      for (;;) {
        const container = await this.firstContainer(appId, target.id, revision);
        const state = container?.State;
        if (dependency.condition === 'service_healthy' && state?.Health?.Status === 'healthy') break;
        if (dependency.condition === 'service_completed_successfully' && state?.Status === 'exited') {
          if (state.ExitCode === 0) break;
          throw new DependencyFailedError(
            `${dependency.service} exited with code ${state.ExitCode}, and this service needs it to complete successfully (depends_on)`,
            ['depends_on'],
          );
        }
        if (
          !container ||
          state?.Status === 'exited' ||
          state?.Status === 'dead' ||
          state?.Health?.Status === 'unhealthy' ||
          Date.now() > deadline
        ) {
          const what = dependency.condition === 'service_healthy' ? 'healthy' : 'complete';
          throw new DependencyFailedError(
            `${dependency.service} did not become ${what} (depends_on ${dependency.condition}): ${container ? `it is ${state?.Health?.Status ?? state?.Status}` : 'it has no container'}`,
            ['depends_on'],
          );
        }
        await new Promise((resolve) => setTimeout(resolve, 250));
      }
    }
  }

  /**
   * What the service's containers run: its pinned digest when a rollback pinned it, which must
   * still be on the engine or in its registry (else a 422 naming the image: never the tag instead).
   */
  async imageFor(service: Pick<Service, 'name' | 'from' | 'pinnedImage' | 'options'>): Promise<ImageInspect> {
    const pinned = service.pinnedImage;
    if (!pinned) return this.ensureImage(service.from, service.options?.buildContext);
    const local = await this.launcher.inspect(pinned);
    if (local) return local;
    if (!pinned.includes('@')) throw lostDigest(service, pinned, 'the engine no longer has that image and no registry serves it');
    try {
      await this.launcher.pull(pinned);
    } catch (error) {
      if (isEngineUnreachable(error)) throw error;
      this.log.warn({ err: error, image: pinned }, 'a pinned image could not be pulled');
      throw lostDigest(service, pinned, 'neither the engine nor its registry has it any more');
    }
    return this.docker.inspectImage(pinned);
  }

  /** A compose `build:` image is never pulled: its name may be anyone's. */
  private async ensureImage(ref: string, builtFrom?: string): Promise<ImageInspect> {
    if (!builtFrom) return this.launcher.ensureImage(ref);
    const local = await this.launcher.inspect(ref);
    if (local) return local;
    throw new NotFoundError(
      `the image ${ref} is built from "${builtFrom}" when the app is made, and the engine does not have it (its build failed or did not run, or it was removed): create the app again to build it`,
      ['build'],
    );
  }

  pull(ref: string): Promise<void> {
    return this.launcher.pull(ref);
  }

  private readonly pullCredentials = async (host: string): Promise<RegistryAuth | undefined> => {
    const match = (await this.registries.list()).find((r: Registry) => imagePrefix(r.endpointUrl).split('/')[0].toLowerCase() === host);
    if (!match) return undefined;
    const credentials = this.registries.credentials(match);
    if (credentials.token) return { identitytoken: credentials.token, serveraddress: host };
    if (credentials.username) return { username: credentials.username, password: credentials.password ?? '', serveraddress: host };
    return undefined;
  };

  private made?: ContainerLauncher;
  private get launcher(): ContainerLauncher {
    return (this.made ??= new ContainerLauncher(this.docker, this.pullCredentials));
  }

  async removeServiceContainers(appId: number, serviceId: number): Promise<void> {
    for (const container of await this.docker.listContainers({ all: true, labels: await this.labels(appId, serviceId) })) {
      await this.docker.removeContainer(container.Id, { force: true, removeVolumes: true });
    }
  }

  /** External volumes and networks are never labelled, so they stay. */
  async removeApp(appId: number, services: Service[] = []): Promise<void> {
    const labels = await this.labels(appId);
    for (const container of await this.docker.listContainers({ all: true, labels })) {
      await this.docker.removeContainer(container.Id, { force: true, removeVolumes: true });
    }
    for (const network of await this.docker.listNetworks({ labels })) await this.docker.removeNetwork(network.Id);
    for (const volume of await this.docker.listVolumes({ labels })) await this.docker.removeVolume(volume.Name);
    // Images built for the app under a name of ours go with it (one it was told to tag as `image:` stays).
    for (const service of services) {
      const built = service.options?.builtImage;
      if (built) await orNull(this.docker.removeImage(built, { force: true }));
    }
  }
}

export function needs(service: Service): string[] {
  return [
    ...service.links.getItems().map((l) => l.to.name),
    ...service.volumesFrom.getItems().map((v) => v.exportedFrom.name),
    ...(service.options?.dependsOn ?? []).map((d) => d.service),
  ];
}

export interface StartContext {
  project: string;
  /** Compose network name → the engine's network name. */
  networks: Map<string, string>;
  all: Service[];
  /** The revision the containers are made for (their label). */
  revision?: number;
}

/** What a start tells whoever records its revision. */
export interface RunObserver {
  revision?: number;
  onImage?(service: Service, image: ImageInspect): void;
}

/** The image reference a service's containers are made from. */
export function imageReferenceOf(service: Pick<Service, 'from' | 'pinnedImage'>): string {
  return service.pinnedImage ?? service.from;
}

function lostDigest(service: Pick<Service, 'name' | 'from'>, pinned: string, why: string): ValidationError {
  return new ValidationError(`image ${service.from} of service ${service.name} is pinned to ${pinned}: ${why}`, ['revision']);
}
