import type { ContainerInspect, ContainerSummary } from '../engines/docker-types';
import { containerStatus, serviceState, type ServiceState } from '../engines/states';
import type { AppCategory, RunError, Service } from './app.entity';

/** Lists read summaries (one engine call per app); single reads inspect. */
export type Observation =
  | { kind: 'summary'; container: ContainerSummary }
  | { kind: 'inspect'; container: ContainerInspect }
  | { kind: 'none' }
  | { kind: 'unreachable'; message: string };

export interface ReplicaView {
  /** From 1, as compose numbers them. */
  number: number;
  name: string;
  state: ServiceState;
  containerId: string;
  status: string;
}

export interface ServiceView {
  service: Service;
  state: ServiceState;
  containerStatus: Record<string, unknown>;
  errors: RunError | null;
  replicas: ReplicaView[];
}

export const LABEL_REPLICA = 'platform.replica';

/** Containers made before the replica label existed count as the first. */
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

/** An inspect's keys where a list entry has them (no start or finish times), and the raw entry as `info`. */
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

/** The app places it at the category's own position, a service at its own. */
export interface CategoryPlacement {
  category: AppCategory;
  position: number;
}

export function appCategories(categories: readonly AppCategory[]): CategoryPlacement[] {
  return categories.map((category) => ({ category, position: category.position }));
}

/** Its app's categories must be loaded. */
export function serviceCategories(service: Service): CategoryPlacement[] {
  const categories = service.app.categories.getItems();
  return service.categories.flatMap((ref) => {
    const category = categories.find((c) => c.id === ref.category_id);
    return category ? [{ category, position: ref.position ?? category.position }] : [];
  });
}
