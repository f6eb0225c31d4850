import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamp } from '../db/timestamps';
import type { EnvDef, PortDef, VolumeDef } from '../parts/image';
import type { ServiceOptions } from './service-options';
import { serviceTextColumns } from '../parts/columns';

/** As the spec's Error object. */
export interface RunError {
  code: number;
  message: string;
  fields: string;
}

export interface BuildLine {
  /** ISO-8601 with nanoseconds. */
  timestamp: string;
  message: string;
}

export interface ServiceCategoryRef {
  category_id: number;
  position: number | null;
}

export const App = defineEntity({
  name: 'App',
  tableName: 'apps',
  properties: {
    id: p.integer().primary(),
    name: p.text(),
    from: p.text().fieldName('from_source').nullable(),
    documentation: p.text().nullable(),
    /** Kept from the template it was made from, so a template made from the app gives them back. */
    description: p.text().nullable(),
    keywords: p.text().nullable(),
    type: p.text().nullable(),
    /** Run-time failures of the app itself (the network, an unreachable engine). */
    errors: p.json<{ message: string }[]>().$type<{ message: string }[]>().defaultRaw(`'[]'`),
    /** Compose keys not honoured as written; shown with the errors. */
    warnings: p
      .json<{ message: string }[]>()
      .$type<{ message: string }[]>()
      .defaultRaw(`'[]'`)
      .onCreate(() => []),
    categories: () => p.oneToMany(AppCategory).mappedBy('app').orderBy({ position: 'asc', id: 'asc' }),
    services: () => p.oneToMany(Service).mappedBy('app').orderBy({ position: 'asc', id: 'asc' }),
    createdAt: timestamp(),
  },
});
export type App = InferEntity<typeof App>;

export const AppCategory = defineEntity({
  name: 'AppCategory',
  tableName: 'app_categories',
  uniques: [{ properties: ['app', 'name'] }],
  properties: {
    id: p.integer().primary(),
    app: () => p.manyToOne(App).deleteRule('cascade').updateRule('no action'),
    name: p.text(),
    position: p.integer().default(0),
  },
});
export type AppCategory = InferEntity<typeof AppCategory>;

/** One container, or `options.replicas` of them. */
export const Service = defineEntity({
  name: 'Service',
  tableName: 'services',
  indexes: [{ name: 'services_app_id_idx', properties: ['app', 'position'] }],
  uniques: [{ name: 'services_app_id_name_key', properties: ['app', 'name'] }],
  properties: {
    id: p.integer().primary(),
    app: () => p.manyToOne(App).deleteRule('cascade').updateRule('no action'),
    position: p.integer().default(0),
    name: p.text(),
    /** The name at creation; never changes (the original's unit name). */
    internalName: p.text(),
    /** The template image's name ("Reverse Proxy") before it was sanitised into `name`. */
    imageName: p.text().nullable(),
    from: p.text().fieldName('from_image'),
    /** What its containers run when a rollback pinned them (`repo@sha256:…` or an image id); null: `from`. */
    pinnedImage: p.text().nullable(),
    ...serviceTextColumns(),
    ports: p.json<PortDef[]>().$type<PortDef[]>().defaultRaw(`'[]'`),
    expose: p.json<string[]>().$type<string[]>().defaultRaw(`'[]'`),
    environment: p.json<EnvDef[]>().$type<EnvDef[]>().defaultRaw(`'[]'`),
    volumes: p.json<VolumeDef[]>().$type<VolumeDef[]>().defaultRaw(`'[]'`),
    categories: p.json<ServiceCategoryRef[]>().$type<ServiceCategoryRef[]>().defaultRaw(`'[]'`),
    /** The image's `Config.ExposedPorts`, recorded when the container was last made. */
    defaultExposedPorts: p.json<string[]>().$type<string[]>().defaultRaw(`'[]'`),
    lastError: p.json<RunError>().$type<RunError | null>().nullable(),
    /** Set while its image is pulled and its container made. */
    startingAt: p.datetime().nullable(),
    /** Compose options without a field of their own (entrypoint, healthcheck, networks, ...). */
    options: p
      .json<ServiceOptions>()
      .$type<ServiceOptions>()
      .defaultRaw(`'{}'`)
      .onCreate(() => ({})),
    /** The last lines of its compose `build:`, shown in the journal. */
    buildLog: p
      .json<BuildLine[]>()
      .$type<BuildLine[]>()
      .defaultRaw(`'[]'`)
      .onCreate(() => []),
    links: () => p.oneToMany(ServiceLink).mappedBy('from').orderBy({ id: 'asc' }),
    volumesFrom: () => p.oneToMany(SharedVolume).mappedBy('mountedOn').orderBy({ id: 'asc' }),
  },
});
export type Service = InferEntity<typeof Service>;

/** `from` reaches `to` by `alias` (a network-scoped link). */
export const ServiceLink = defineEntity({
  name: 'ServiceLink',
  tableName: 'service_links',
  uniques: [{ properties: ['from', 'to'] }],
  indexes: [{ name: 'service_links_to_idx', properties: ['to'] }],
  properties: {
    id: p.integer().primary(),
    from: () => p.manyToOne(Service).fieldName('from_service_id').deleteRule('cascade').updateRule('no action'),
    to: () => p.manyToOne(Service).fieldName('to_service_id').deleteRule('cascade').updateRule('no action'),
    alias: p.text(),
  },
});
export type ServiceLink = InferEntity<typeof ServiceLink>;

/** `mountedOn` mounts the volumes of `exportedFrom` (--volumes-from). */
export const SharedVolume = defineEntity({
  name: 'SharedVolume',
  tableName: 'shared_volumes',
  uniques: [{ properties: ['mountedOn', 'exportedFrom'] }],
  indexes: [{ name: 'shared_volumes_exported_idx', properties: ['exportedFrom'] }],
  properties: {
    id: p.integer().primary(),
    mountedOn: () => p.manyToOne(Service).fieldName('mounted_on_service_id').deleteRule('cascade').updateRule('no action'),
    exportedFrom: () => p.manyToOne(Service).fieldName('exported_from_service_id').deleteRule('cascade').updateRule('no action'),
  },
});
export type SharedVolume = InferEntity<typeof SharedVolume>;
