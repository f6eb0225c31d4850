import type { EntityManager } from '@mikro-orm/postgresql';
import type { EnvDef, PortDef, VolumeDef } from '../catalog/template-definition';
import { normalizeType } from '../catalog/template-types';
import { ValidationError } from '../errors';
import { Service, type App, type ServiceCategoryRef } from './app.entity';
import { dependencyOrder } from './dependency-order';
import { volumeSourceProblem } from './names';

export interface LinkInput {
  /** The linked service's id (the spec's ServiceLink.id); `serviceId` is the original's name for it. */
  id?: string | number | null;
  serviceId?: number | null;
  /** The linked service's name. */
  service?: string | null;
  alias?: string | null;
}

export interface VolumesFromInput {
  service?: string | null;
  serviceId?: number | null;
}

/** A Service's writable fields; on update, what is not given stays as it is. */
export interface ServiceInput {
  name?: string | null;
  description?: string | null;
  from?: string | null;
  type?: string | null;
  command?: string | null;
  ports?: PortDef[] | null;
  expose?: (string | number)[] | null;
  environment?: EnvDef[] | null;
  volumes?: VolumeDef[] | null;
  links?: LinkInput[] | null;
  volumesFrom?: VolumesFromInput[] | null;
  categories?: { id: number; position?: number | null }[] | null;
}

/** A checked input: links and volumes_from resolved to services of the app. */
export interface CheckedInput {
  links?: { to: Service; alias: string }[];
  volumesFrom?: Service[];
  categories?: ServiceCategoryRef[];
}

type Problems = Map<string, string[]>;

/**
 * The rules of a service's fields (reference/original-api.md §2, ISSUE: name required; ports
 * need container_port, host_port + proto unique on the engine host; expose numeric; volumes need
 * container_path; links and volumes_from name other services of the same app). Every problem
 * is reported at once: 422 listing the fields. `self` is null when creating.
 */
export async function checkServiceInput(
  em: EntityManager,
  app: App,
  all: Service[],
  self: Service | null,
  input: ServiceInput,
): Promise<CheckedInput> {
  const problems: Problems = new Map();
  const add = (field: string, message: string) => problems.set(field, [...(problems.get(field) ?? []), message]);

  if ((self === null || input.name !== undefined) && !input.name?.trim()) add('name', "name can't be blank");
  if ((self === null || input.from !== undefined) && !input.from?.trim()) add('from', "from (the image) can't be blank");

  if (input.ports) {
    const seen = new Set<string>();
    input.ports.forEach((port, i) => {
      if (blank(port.container_port)) add('ports', `ports[${i}]: container port can't be blank`);
      if (blank(port.host_port)) return;
      const key = portKey(port);
      if (seen.has(key)) add('ports', `ports[${i}]: host port ${key} is given twice`);
      seen.add(key);
    });
    // Host ports are the engine host's: unique across every app's services.
    const others = await em.find(Service, self ? { id: { $ne: self.id } } : {}, { fields: ['name', 'ports'] });
    for (const other of others) {
      for (const port of other.ports) {
        if (!blank(port.host_port) && seen.has(portKey(port)))
          add('ports', `host port ${portKey(port)} is already used by service ${other.name}`);
      }
    }
  }
  input.expose?.forEach((entry, i) => {
    if (!/^\d{1,5}$/.test(String(entry).trim()) || Number(entry) < 1 || Number(entry) > 65535)
      add('expose', `expose[${i}]: "${entry}" is not a port number`);
  });
  input.volumes?.forEach((volume, i) => {
    if (blank(volume.container_path)) add('volumes', `volumes[${i}]: container path can't be blank`);
    const problem = volumeSourceProblem(volume.host_path);
    if (problem) add('volumes', `volumes[${i}]: ${problem}`);
  });
  input.environment?.forEach((env, i) => {
    if (blank(env.variable)) add('environment', `environment[${i}]: variable can't be blank`);
  });

  const ownName = input.name?.trim() ?? self?.name;
  const find = (ref: { id?: string | number | null; serviceId?: number | null; service?: string | null }, field: string, at: string) => {
    const id = ref.serviceId ?? (ref.id != null && String(ref.id).trim() !== '' ? Number(ref.id) : null);
    const target =
      id !== null ? all.find((s) => s.id === id) : ref.service?.trim() ? all.find((s) => s.name === ref.service!.trim()) : undefined;
    if (id === null && !ref.service?.trim()) add(field, `${at}: the service (id or name) can't be blank`);
    else if (!target) add(field, `${at}: ${id !== null ? `service ${id}` : `"${ref.service}"`} is not a service of app ${app.id}`);
    else if ((self && target.id === self.id) || (!self && target.name === ownName))
      add(field, `${at}: a service can't ${field === 'links' ? 'link to' : 'mount volumes from'} itself`);
    else return target;
    return undefined;
  };
  const checked: CheckedInput = {};
  if (input.links) {
    checked.links = [];
    const aliases = new Set<string>();
    input.links.forEach((link, i) => {
      const target = find(link, 'links', `links[${i}]`);
      if (!target) return;
      const alias = link.alias?.trim() || target.name;
      if (aliases.has(alias)) add('links', `links[${i}]: alias "${alias}" is used twice`);
      else if (checked.links!.some((l) => l.to === target)) add('links', `links[${i}]: ${target.name} is linked twice`);
      aliases.add(alias);
      checked.links!.push({ to: target, alias });
    });
  }
  if (input.volumesFrom) {
    checked.volumesFrom = [];
    input.volumesFrom.forEach((ref, i) => {
      const target = find(ref, 'volumes_from', `volumes_from[${i}]`);
      if (target && !checked.volumesFrom!.includes(target)) checked.volumesFrom!.push(target);
    });
  }
  if (input.categories) {
    const known = new Set(app.categories.getItems().map((c) => c.id));
    checked.categories = [];
    input.categories.forEach((category, i) => {
      if (!known.has(Number(category.id))) add('categories', `categories[${i}]: ${category.id} is not a category of app ${app.id}`);
      else if (category.position != null && !(Number.isInteger(category.position) && category.position >= 0))
        add('categories', `categories[${i}]: position must be a whole number, 0 or more`);
      else checked.categories!.push({ category_id: Number(category.id), position: category.position ?? 0 });
    });
  }
  if (problems.size === 0 && (checked.links || checked.volumesFrom)) checkCycle(all, self, ownName ?? '', checked);
  if (problems.size > 0) throw new ValidationError([...problems.values()].flat().join('; '), [...problems.keys()]);
  return checked;
}

/** The app's dependency graph with this service's new links must still have a start order. */
function checkCycle(all: Service[], self: Service | null, ownName: string, checked: CheckedInput): void {
  const edges = new Map<string, string[]>();
  for (const s of all) {
    if (self && s.id === self.id) continue;
    edges.set(s.name, [...s.links.getItems().map((l) => l.to.name), ...s.volumesFrom.getItems().map((v) => v.exportedFrom.name)]);
  }
  const renamed = (name: string) => (self && name === self.name ? ownName : name);
  for (const [name, deps] of edges) edges.set(name, deps.map(renamed));
  const ownDeps = [
    ...(checked.links ?? self?.links.getItems() ?? []).map((l) => l.to.name),
    ...(checked.volumesFrom ?? self?.volumesFrom.getItems().map((v) => v.exportedFrom) ?? []).map((s) => s.name),
  ];
  edges.set(ownName, ownDeps);
  dependencyOrder([...edges.keys()], (name) => edges.get(name) ?? []);
}

/** Applies the scalar and collection fields given (names are set by the caller). */
export function applyServiceFields(service: Service, input: ServiceInput, checked: CheckedInput): void {
  if (input.description !== undefined) service.description = input.description;
  if (input.from !== undefined && input.from !== null) service.from = input.from.trim();
  if (input.type !== undefined) service.type = input.type == null ? null : normalizeType(input.type);
  if (input.command !== undefined) service.command = input.command?.trim() ? input.command : null;
  if (input.ports) service.ports = input.ports;
  if (input.expose) service.expose = input.expose.map((e) => String(e).trim());
  if (input.environment) service.environment = input.environment;
  if (input.volumes) service.volumes = input.volumes;
  if (checked.categories) service.categories = checked.categories;
}

function portKey(port: PortDef): string {
  return `${String(port.host_port).trim()}/${blank(port.proto) ? 'TCP' : String(port.proto).trim().toUpperCase()}`;
}

function blank(value: unknown): boolean {
  return value === null || value === undefined || (typeof value === 'string' && value.trim() === '');
}
