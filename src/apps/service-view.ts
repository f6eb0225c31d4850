import type { ContainerInspect, ContainerSummary } from '../engines/docker-types';
import { containerStatus, serviceState, type ServiceState } from '../engines/states';
import type { AppCategory, RunError, Service } from './app.entity';

/**
 * What the engine said about a service's container: a list entry (lists cost one engine call
 * per app), a full inspect (single reads), none, or the engine could not be asked.
 */
export type Observation =
  | { kind: 'summary'; container: ContainerSummary }
  | { kind: 'inspect'; container: ContainerInspect }
  | { kind: 'none' }
  | { kind: 'unreachable'; message: string };

/** One container of a service with `deploy.replicas`/`scale` (the first is the service's own state). */
export interface ReplicaView {
  /** 1 for the first container, as compose numbers them. */
  number: number;
  /** The container's name on the engine. */
  name: string;
  state: ServiceState;
  containerId: string;
  status: string;
}

/** A service with its live state: what the Service type reads. */
export interface ServiceView {
  service: Service;
  state: ServiceState;
  containerStatus: Record<string, unknown>;
  errors: RunError | null;
  /** Each of its containers' state, by replica number (none known when the engine could not be asked). */
  replicas: ReplicaView[];
}

export const LABEL_REPLICA = 'platform.replica';

/**
 * The replicas of a service from its containers' list entries, by number. Containers made
 * before the replica label existed count as the first. The service's own state stays the first
 * replica's; each replica's is here.
 */
export function replicaViews(containers: readonly ContainerSummary[]): ReplicaView[] {
  return containers
    .map((c) => ({
      number: Number(c.Labels[LABEL_REPLICA] ?? 1),
      name: c.Names[0]?.replace(/^\//, '') ?? c.Id,
      state: serviceState(summaryAsInspect(c)),
      containerId: c.Id,
      status: c.Status,
    }))
    .sort((a, b) => a.number - b.number);
}

// A start that left its mark longer ago than this died with its process: stop saying start-pre.
const STALE_START_MS = 10 * 60_000;

export function serviceView(service: Service, observed: Observation, now = Date.now(), replicas: ReplicaView[] = []): ServiceView {
  if (observed.kind === 'unreachable') {
    return {
      service,
      replicas: [],
      state: serviceState('unreachable'),
      containerStatus: {},
      errors: { code: 502, message: observed.message, fields: '' },
    };
  }
  const starting = service.startingAt !== null && service.startingAt !== undefined && now - service.startingAt.getTime() < STALE_START_MS;
  const inspect =
    observed.kind === 'inspect' ? observed.container : observed.kind === 'summary' ? summaryAsInspect(observed.container) : null;
  const notYetMade = inspect === null || inspect.State.Status === 'created';
  const status =
    observed.kind === 'inspect'
      ? (containerStatus(observed.container) as Record<string, unknown>)
      : observed.kind === 'summary'
        ? summaryStatus(observed.container)
        : {};
  // Interface A's service has no field for them: a service of several containers lists them in its free-form container_status.
  const scaled = (service.options?.replicas ?? 1) !== 1 || replicas.length > 1;
  return {
    service,
    state: serviceState(starting && notYetMade ? 'pulling' : inspect),
    containerStatus: scaled ? { ...status, replicas: replicas.map(replicaStatus) } : status,
    errors: service.lastError ?? null,
    replicas,
  };
}

function replicaStatus(replica: ReplicaView): Record<string, unknown> {
  return { number: replica.number, name: replica.name, id: replica.containerId, status: replica.status, ...replica.state };
}

/** Enough of an inspect result for `serviceState`, from a list entry's words. */
function summaryAsInspect(summary: ContainerSummary): ContainerInspect {
  const exit = /^Exited \((-?\d+)\)/.exec(summary.Status);
  const health = /\(health: starting\)/.test(summary.Status) ? { Health: { Status: 'starting' } } : {};
  return {
    Id: summary.Id,
    State: { Status: summary.State, ExitCode: exit ? Number(exit[1]) : 0, Running: summary.State === 'running', ...health },
  } as unknown as ContainerInspect;
}

interface SummaryPort {
  IP?: string;
  PrivatePort: number;
  PublicPort?: number;
  Type: string;
}

/**
 * `container_status` from a list entry: the same keys as from an inspect, where the list has
 * them (it has no start or finish times), and the raw entry as `info`.
 */
export function summaryStatus(summary: ContainerSummary): Record<string, unknown> {
  const exit = /^Exited \((-?\d+)\)/.exec(summary.Status);
  const ports = ((summary as unknown as { Ports?: SummaryPort[] }).Ports ?? [])
    .map((p) => ({ container_port: p.PrivatePort, proto: p.Type, host_interface: p.IP || null, host_port: p.PublicPort ?? null }))
    .sort((a, b) => a.container_port - b.container_port || a.proto.localeCompare(b.proto));
  return {
    id: summary.Id,
    image: summary.Image,
    state: summary.State,
    status: summary.Status,
    running: summary.State === 'running',
    exit_code: exit ? Number(exit[1]) : null,
    started_at: null,
    finished_at: null,
    ports,
    info: summary,
  };
}

/** A category where its owner places it: the app at the category's own position, a service at its own. */
export interface CategoryPlacement {
  category: AppCategory;
  position: number;
}

/** The app's categories at the app's positions. */
export function appCategories(categories: readonly AppCategory[]): CategoryPlacement[] {
  return categories.map((category) => ({ category, position: category.position }));
}

/** The service's categories (its app's, loaded with the app), at the service's positions. */
export function serviceCategories(service: Service): CategoryPlacement[] {
  const categories = service.app.categories.getItems();
  return service.categories.flatMap((ref) => {
    const category = categories.find((c) => c.id === ref.category_id);
    return category ? [{ category, position: ref.position ?? category.position }] : [];
  });
}
