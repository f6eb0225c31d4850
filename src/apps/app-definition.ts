import type { EntityManager } from '@mikro-orm/postgresql';
import { camel, SERVICE_TEXT_PART_KEYS } from '../parts/image';
import type { RevisionDefinition, RevisionImage } from '../history/revision-definition';
import { Service, ServiceLink, SharedVolume, type App } from './app.entity';
import { serviceImage } from './service-image';
import type { ServiceOptions } from './service-options';

/** The app as a revision keeps it: each service by its name, with its row's id and compose keys. */
export function appRevisionDefinition(app: App, services: readonly Service[] = app.services.getItems()): RevisionDefinition {
  return {
    name: app.name,
    images: services.map((service): RevisionImage => ({
      ...serviceImage(service, {
        name: service.name,
        category: null,
        links: service.links.getItems().map((l) => ({ service: l.to.name, alias: l.alias })),
        volumes_from: service.volumesFrom.getItems().map((v) => ({ service: v.exportedFrom.name })),
        deployment: service.options?.replicas && service.options.replicas > 1 ? { count: service.options.replicas } : null,
      }),
      serviceId: service.id,
      imageName: service.imageName ?? null,
      options: { ...(service.options ?? {}) },
    })),
  };
}

/** What the rows were before a switch changed them, to put them back if it does not finish. */
export interface RowsSnapshot {
  definition: RevisionDefinition;
  /** Service name → what its containers were pinned to. */
  pins: Record<string, string | null>;
}

export function snapshotOf(app: App): RowsSnapshot {
  const services = app.services.getItems();
  return {
    definition: appRevisionDefinition(app, services),
    pins: Object.fromEntries(services.map((s) => [s.name, s.pinnedImage ?? null])),
  };
}

export interface AppliedDefinition {
  /** The services of the definition, in its order (updated or new rows). */
  services: Service[];
  /** Rows the definition no longer has: removed with their containers once the switch is through. */
  retired: Service[];
}

/**
 * Makes the app's rows say `definition`: services matched by name are updated, others made; those
 * it lacks are only set apart (their containers serve until the switch is through). `pins` gives
 * each service the reference its containers must run.
 */
export async function applyDefinition(
  em: EntityManager,
  app: App,
  definition: RevisionDefinition,
  pins: Record<string, string | null>,
): Promise<AppliedDefinition> {
  const existing = new Map(app.services.getItems().map((s) => [s.name, s]));
  const services: Service[] = [];
  definition.images.forEach((image, position) => {
    const fields = {
      position,
      imageName: image.imageName ?? null,
      from: image.source,
      pinnedImage: pins[image.name] ?? null,
      ...Object.fromEntries(SERVICE_TEXT_PART_KEYS.map((key) => [camel(key), image[key] ?? null])),
      ports: image.ports ?? [],
      expose: (image.expose ?? []).map(String),
      environment: image.environment ?? [],
      volumes: image.volumes ?? [],
      options: (image.options ?? {}) as ServiceOptions,
    };
    const row = existing.get(image.name);
    if (row) {
      Object.assign(row, fields);
      services.push(row);
    } else {
      services.push(
        em.create(Service, {
          app,
          name: image.name,
          internalName: image.name,
          ...fields,
          categories: [],
          defaultExposedPorts: [],
          lastError: null,
          startingAt: null,
          buildLog: [],
        }),
      );
    }
  });
  // Old links go in a flush of their own: a kept (from, to) pair would clash with its own old row.
  for (const service of services) {
    if (!service.links.isInitialized()) continue;
    for (const link of service.links.getItems()) em.remove(link);
    for (const shared of service.volumesFrom.getItems()) em.remove(shared);
  }
  await em.flush();
  const byName = new Map(services.map((s) => [s.name, s]));
  definition.images.forEach((image, i) => {
    const from = services[i];
    for (const link of image.links ?? []) {
      const to = byName.get(link.service);
      if (to) em.create(ServiceLink, { from, to, alias: link.alias });
    }
    for (const shared of image.volumes_from ?? []) {
      const exportedFrom = byName.get(shared.service);
      if (exportedFrom) em.create(SharedVolume, { mountedOn: from, exportedFrom });
    }
  });
  await em.flush();
  const wanted = new Set(services);
  return { services, retired: app.services.getItems().filter((s) => !wanted.has(s)) };
}

/** The rows as `snapshot` says, and rows made since (not in it) removed. */
export async function restoreRows(em: EntityManager, app: App, snapshot: RowsSnapshot): Promise<void> {
  const { retired } = await applyDefinition(em, app, snapshot.definition, snapshot.pins);
  for (const service of retired) em.remove(service);
  await em.flush();
}
