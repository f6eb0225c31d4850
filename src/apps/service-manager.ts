import type { EntityManager, FilterQuery } from '@mikro-orm/postgresql';
import { isEngineUnreachable } from '../engines/engine-errors';
import { NotFoundError } from '../errors';
import { Service, ServiceLink, SharedVolume, type App } from './app.entity';
import { launch, loadApp, type AppsDeps } from './app-start';
import { LABEL_INSTANCE, LABEL_SERVICE } from './container-labels';
import { readJournal, type JournalEntry, type JournalQuery } from './journal';
import { applyServiceFields, checkServiceInput, type ServiceInput } from './service-input';
import { replicaViews, serviceView, type Observation, type ServiceView } from './service-view';
import type { ContainerSummary } from '../engines/docker-types';
import { sanitizeName, uniqueName } from '../parts/names';

export class AppServiceManager {
  private installation: Promise<Map<string, ContainerSummary[]> | Observation> | undefined;

  constructor(
    private readonly em: EntityManager,
    private readonly deps: AppsDeps,
  ) {}

  /** Every state from one engine call: a list by the app's label. */
  async list(appId: number): Promise<ServiceView[]> {
    const app = await loadApp(this.em, appId);
    return this.views(app, app.services.getItems());
  }

  /** Batched per request: one query for the rows, one engine call for every app's states. */
  ofApps(appIds: readonly number[]): Promise<ServiceView[]> {
    return this.viewsWhere({ app: { $in: [...appIds] } });
  }

  /** For links to them and global ids, in any apps; batched like ofApps. */
  byIds(ids: readonly number[]): Promise<ServiceView[]> {
    return this.viewsWhere({ id: { $in: [...ids] } });
  }

  /** For a global id's lookup. */
  async getById(id: number): Promise<ServiceView> {
    const service = await this.em.findOne(Service, { id });
    if (!service) throw NotFoundError.of('service', id);
    return this.get(service.app.id, id);
  }

  /**
   * One service as lists show it (its containers' list entries, no inspect): an inspect waits while the engine
   * starts or stops the container, 200 ms and more, and an event's subscribers read the service right then.
   */
  async summaryById(id: number): Promise<ServiceView> {
    const service = await this.em.findOne(Service, { id }, { populate: ['app', 'app.categories', 'links.to', 'volumesFrom.exportedFrom'] });
    if (!service) throw NotFoundError.of('service', id);
    return viewsOf([service], await this.observe(await this.deps.runnerFor(this.em).labels(service.app.id, id)))[0];
  }

  private async viewsWhere(where: FilterQuery<Service>): Promise<ServiceView[]> {
    const services = await this.em.find(Service, where, {
      orderBy: { position: 'asc', id: 'asc' },
      populate: ['app', 'app.categories', 'links.to', 'volumesFrom.exportedFrom'],
    });
    if (services.length === 0) return [];
    // Once per request: the apps of a list and the services their links point at share one engine call.
    this.installation ??= this.deps.runtime.instanceId(this.em).then((instance) => this.observe({ [LABEL_INSTANCE]: instance }));
    return viewsOf(services, await this.installation);
  }

  private async observe(labels: Record<string, string>): Promise<Map<string, ContainerSummary[]> | Observation> {
    try {
      const containers = await this.deps.runtime.docker.listContainers({ all: true, labels });
      const byService = new Map<string, ContainerSummary[]>();
      for (const c of containers) byService.set(c.Labels[LABEL_SERVICE], [...(byService.get(c.Labels[LABEL_SERVICE]) ?? []), c]);
      return byService;
    } catch (error) {
      if (!isEngineUnreachable(error)) throw error;
      return { kind: 'unreachable', message: error.message };
    }
  }

  async views(app: App, services: Service[]): Promise<ServiceView[]> {
    return viewsOf(services, await this.observe(await this.deps.runnerFor(this.em).labels(app.id)));
  }

  /** One service, with the engine's full inspect data. */
  async get(appId: number, id: number): Promise<ServiceView> {
    const app = await loadApp(this.em, appId);
    return this.viewOne(app, this.find(app, id));
  }

  private async viewOne(app: App, service: Service): Promise<ServiceView> {
    const docker = this.deps.runtime.docker;
    let observed: Observation;
    let containers: ContainerSummary[] = [];
    try {
      containers = await docker.listContainers({ all: true, labels: await this.deps.runnerFor(this.em).labels(app.id, service.id) });
      const [first] = replicaViews(containers);
      const inspect = first ? await docker.inspectContainer(first.containerId) : null;
      observed = inspect ? { kind: 'inspect', container: inspect } : { kind: 'none' };
    } catch (error) {
      if (!isEngineUnreachable(error)) throw error;
      observed = { kind: 'unreachable', message: error.message };
    }
    return serviceView(service, observed, Date.now(), replicaViews(containers));
  }

  async create(appId: number, input: ServiceInput): Promise<ServiceView> {
    const app = await loadApp(this.em, appId);
    const all = app.services.getItems();
    const checked = await checkServiceInput(this.em, app, all, null, input);
    const name = this.uniqueServiceName(app, input.name!, null);
    const service = this.em.create(Service, {
      app,
      position: all.length,
      name,
      internalName: name,
      from: input.from!.trim(),
      description: null,
      type: null,
      command: null,
      ports: [],
      expose: [],
      environment: [],
      volumes: [],
      categories: [],
      defaultExposedPorts: [],
      lastError: null,
      startingAt: null,
      options: {},
    });
    applyServiceFields(service, input, checked);
    for (const link of checked.links ?? []) this.em.create(ServiceLink, { from: service, to: link.to, alias: link.alias });
    for (const from of checked.volumesFrom ?? []) this.em.create(SharedVolume, { mountedOn: service, exportedFrom: from });
    await this.em.flush();
    await launch(this.em, this.deps, app, [service], { background: true, failOnEngineError: false, record: 'service' });
    return this.viewOne(app, service);
  }

  /** A rename recreates the services whose containers name it; an unreachable engine still saves (204, failure in errors). */
  async update(appId: number, id: number, input: ServiceInput, restart: boolean): Promise<Service> {
    const app = await loadApp(this.em, appId);
    const service = this.find(app, id);
    const all = app.services.getItems();
    const checked = await checkServiceInput(this.em, app, all, service, input);
    const oldName = service.name;
    const oldFrom = service.from;
    if (input.name != null && sanitizeName(input.name.trim()) !== service.name)
      service.name = this.uniqueServiceName(app, input.name, service.name);
    applyServiceFields(service, input, checked);
    // Another image is not the one a rollback pinned.
    if (service.from !== oldFrom) service.pinnedImage = null;
    if (oldName !== service.name) renameInOptions(all, oldName, service.name);
    // Old links go in a flush of their own: the unit of work inserts before it deletes, and a
    // kept (from, to) pair would clash with its own old row.
    if (checked.links) for (const link of service.links.getItems()) this.em.remove(link);
    if (checked.volumesFrom) for (const shared of service.volumesFrom.getItems()) this.em.remove(shared);
    await this.em.flush();
    for (const link of checked.links ?? []) this.em.create(ServiceLink, { from: service, to: link.to, alias: link.alias });
    for (const from of checked.volumesFrom ?? []) this.em.create(SharedVolume, { mountedOn: service, exportedFrom: from });
    await this.em.flush();
    if (!restart) return service;
    const renamed =
      oldName === service.name
        ? []
        : all.filter(
            (s) => s.links.getItems().some((l) => l.to === service) || s.volumesFrom.getItems().some((v) => v.exportedFrom === service),
          );
    // Compose `depends_on: {<this>: {restart: true}}`: those services are recreated with it.
    const restartWith = all.filter((s) => s !== service && (s.options?.dependsOn ?? []).some((d) => d.restart && d.service === oldName));
    const dependents = [...new Set([...renamed, ...restartWith])];
    await launch(this.em, this.deps, app, [service, ...dependents], { background: false, failOnEngineError: false, record: 'service' });
    return service;
  }

  /** The engine must answer. */
  async delete(appId: number, id: number): Promise<ServiceView> {
    const app = await loadApp(this.em, appId);
    const service = this.find(app, id);
    await this.deps.runtime.settled(appId);
    await this.deps.runnerFor(this.em).removeServiceContainers(appId, id);
    const view = serviceView(service, { kind: 'none' });
    await this.em.remove(service).flush();
    return view;
  }

  async journal(appId: number, id: number, query: JournalQuery): Promise<JournalEntry[]> {
    const app = await loadApp(this.em, appId);
    const service = this.find(app, id);
    const labels = await this.deps.runnerFor(this.em).labels(appId, id);
    return readJournal(this.deps.runtime.docker, labels, new Map([[String(id), service.name]]), query, [
      { service: service.name, lines: service.buildLog ?? [] },
    ]);
  }

  /** A service of another app is as unknown here as one that does not exist. */
  private find(app: App, id: number): Service {
    const service = app.services.getItems().find((s) => s.id === id);
    if (!service) throw new NotFoundError(`service ${id} not found in app ${app.id}`, ['id']);
    return service;
  }

  private uniqueServiceName(app: App, raw: string, current: string | null): string {
    const taken = app.services
      .getItems()
      .map((s) => s.name)
      .filter((n) => n !== current);
    return uniqueName(sanitizeName(raw.trim()), taken);
  }
}

/** A service's own state is its first replica's. */
function viewsOf(services: Service[], observed: Map<string, ContainerSummary[]> | Observation): ServiceView[] {
  return services.map((s) => {
    if (!(observed instanceof Map)) return serviceView(s, observed);
    const replicas = replicaViews(observed.get(String(s.id)) ?? []);
    const first = (observed.get(String(s.id)) ?? []).find((c) => c.Id === replicas[0]?.containerId);
    return serviceView(s, first ? { kind: 'summary', container: first } : { kind: 'none' }, Date.now(), replicas);
  });
}

/** Other services' depends_on and read-only volumes_from follow a rename. */
function renameInOptions(all: Service[], from: string, to: string): void {
  for (const other of all) {
    const options = other.options ?? {};
    if (!options.dependsOn?.some((d) => d.service === from) && !options.readOnlyVolumesFrom?.includes(from)) continue;
    // A new object: the ORM sees a JSON property change by identity.
    other.options = {
      ...options,
      ...(options.dependsOn ? { dependsOn: options.dependsOn.map((d) => (d.service === from ? { ...d, service: to } : d)) } : {}),
      ...(options.readOnlyVolumesFrom ? { readOnlyVolumesFrom: options.readOnlyVolumesFrom.map((n) => (n === from ? to : n)) } : {}),
    };
  }
}
