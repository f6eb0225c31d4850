import type { EntityManager } from '@mikro-orm/postgresql';
import {
  camel,
  normalizeText,
  SERVICE_TEXT_PART_KEYS,
  type Camel,
  type CamelTextParts,
  type EnvDef,
  type PortDef,
  type ServiceTextPartKey,
  type VolumeDef,
} from '../parts/image';
import { normalizeType } from '../catalog/template-types';
import { checkParts, hostPortKey, isBlank } from '../parts/validator';
import { Problems } from '../problems';
import { Service, type App, type ServiceCategoryRef } from './app.entity';
import { dependencyOrder } from './dependency-order';

export interface LinkInput {
  /** The spec's ServiceLink.id; `serviceId` is the original's name for it. */
  id?: string | number | null;
  serviceId?: number | null;
  service?: string | null;
  alias?: string | null;
}

export interface VolumesFromInput {
  service?: string | null;
  serviceId?: number | null;
}

/** On update, what is not given stays as it is. */
export interface ServiceInput extends Partial<Pick<CamelTextParts, Camel<ServiceTextPartKey>>> {
  name?: string | null;
  from?: string | null;
  ports?: PortDef[] | null;
  expose?: (string | number)[] | null;
  environment?: EnvDef[] | null;
  volumes?: VolumeDef[] | null;
  links?: LinkInput[] | null;
  volumesFrom?: VolumesFromInput[] | null;
  categories?: { id: number; position?: number | null }[] | null;
}

export interface CheckedInput {
  links?: { to: Service; alias: string }[];
  volumesFrom?: Service[];
  categories?: ServiceCategoryRef[];
}

/** Every problem at once, a 422 (docs/original-system.md "Service field rules"); `self` is null when creating. */
export async function checkServiceInput(
  em: EntityManager,
  app: App,
  all: Service[],
  self: Service | null,
  input: ServiceInput,
): Promise<CheckedInput> {
  const problems = new Problems();
  if ((self === null || input.name !== undefined) && !input.name?.trim()) problems.add('', "name can't be blank", 'name');
  if ((self === null || input.from !== undefined) && !input.from?.trim()) problems.add('', "from (the image) can't be blank", 'from');

  const ownName = input.name?.trim() ?? self?.name;
  // A reference by id or by name, as the name it resolves to (this service's under its new name).
  const nameOf = (ref: { id?: string | number | null; serviceId?: number | null; service?: string | null }): string => {
    const id = ref.serviceId ?? (ref.id != null && String(ref.id).trim() !== '' ? Number(ref.id) : null);
    const target = id !== null ? all.find((s) => s.id === id) : all.find((s) => s.name === ref.service?.trim());
    if (target && self && target.id === self.id) return ownName ?? target.name;
    return target?.name ?? (id !== null ? `#${id}` : (ref.service?.trim() ?? ''));
  };
  const links = input.links?.map((link) => {
    const service = nameOf(link);
    return { service, alias: link.alias?.trim() || service };
  });
  const volumesFrom = input.volumesFrom?.map((ref) => ({ service: nameOf(ref) }));
  // Host ports are the engine host's: unique across every app's services.
  const hostPorts = new Map<string, string>();
  if (input.ports) {
    const others = await em.find(Service, self ? { id: { $ne: self.id } } : {}, { fields: ['name', 'ports'] });
    for (const other of others)
      for (const port of other.ports) if (!isBlank(port.host_port)) hostPorts.set(hostPortKey(port), `service ${other.name}`);
  }
  // The validator reads the parts under their file names (restart_policy, not restartPolicy).
  const texts = Object.fromEntries(SERVICE_TEXT_PART_KEYS.map((key) => [key, input[camel(key)]]));
  checkParts({ ...input, ...texts, links, volumes_from: volumesFrom }, '', problems, {
    field: (part) => part,
    noun: 'a service',
    memberOf: `a service of app ${app.id}`,
    names: new Set([...all.filter((s) => !self || s.id !== self.id).map((s) => s.name), ...(ownName ? [ownName] : [])]),
    own: ownName,
    hostPorts,
    appVolumes: true,
  });

  const checked: CheckedInput = {};
  const byName = (name: string) => all.find((s) => (self && s.id === self.id ? ownName : s.name) === name);
  if (links)
    checked.links = links.flatMap(({ service, alias }) => {
      const to = byName(service);
      return to ? [{ to, alias }] : [];
    });
  if (volumesFrom) checked.volumesFrom = volumesFrom.flatMap(({ service }) => byName(service) ?? []);
  if (input.categories) {
    const known = new Set(app.categories.getItems().map((c) => c.id));
    checked.categories = [];
    input.categories.forEach((category, i) => {
      if (!known.has(Number(category.id)))
        problems.add(`categories[${i}]`, `${category.id} is not a category of app ${app.id}`, 'categories');
      else if (category.position != null && !(Number.isInteger(category.position) && category.position >= 0))
        problems.add(`categories[${i}]`, 'position must be a whole number, 0 or more', 'categories');
      else checked.categories!.push({ category_id: Number(category.id), position: category.position ?? 0 });
    });
  }
  if (problems.size === 0 && (checked.links || checked.volumesFrom)) checkCycle(all, self, ownName ?? '', checked);
  problems.throwIfAny();
  return checked;
}

/** With this service's new links the app must still have a start order. */
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

/** Names are set by the caller. */
export function applyServiceFields(service: Service, input: ServiceInput, checked: CheckedInput): void {
  if (input.from !== undefined && input.from !== null) service.from = input.from.trim();
  for (const key of SERVICE_TEXT_PART_KEYS) {
    const value = input[camel(key)];
    if (value !== undefined) service[camel(key)] = value === null ? null : normalizeText(key, value);
  }
  // A type is one of /types, or Default.
  if (input.type != null) service.type = normalizeType(input.type);
  if (input.ports) service.ports = input.ports;
  if (input.expose) service.expose = input.expose.map((e) => String(e).trim());
  if (input.environment) service.environment = input.environment;
  if (input.volumes) service.volumes = input.volumes;
  if (checked.categories) service.categories = checked.categories;
}
