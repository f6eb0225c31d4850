import type { ContainerInspect, ImageInspect } from './docker-types';

export interface ServiceState {
  load_state: string | null;
  active_state: string | null;
  sub_state: string | null;
}

/**
 * What is known of a service's container: its inspect result, null when there is none,
 * 'pulling' while its image is being pulled before create, 'unreachable' when the engine is down.
 */
export type ContainerObservation = ContainerInspect | null | 'pulling' | 'unreachable';

const state = (load: string | null, active: string | null, sub: string | null): ServiceState => ({
  load_state: load,
  active_state: active,
  sub_state: sub,
});

/**
 * systemd's words for a container (docs/contract.md "Service states"). Beyond that table: a
 * running container whose health check is still `starting` is activating/start-pre; a paused one
 * is active/running (its processes exist); one being removed is deactivating/stop.
 */
export function serviceState(observed: ContainerObservation): ServiceState {
  if (observed === 'unreachable') return state(null, null, null);
  if (observed === 'pulling') return state('loaded', 'activating', 'start-pre');
  if (observed === null) return state('not-found', 'inactive', 'dead');
  const s = observed.State;
  switch (s.Status) {
    case 'created':
      return state('loaded', 'inactive', 'dead');
    case 'restarting':
      return state('loaded', 'activating', 'auto-restart');
    case 'running':
    case 'paused': {
      const health = (s as { Health?: { Status?: string } }).Health?.Status;
      if (s.Status === 'running' && health === 'starting') return state('loaded', 'activating', 'start-pre');
      return state('loaded', 'active', 'running');
    }
    case 'removing':
      return state('loaded', 'deactivating', 'stop');
    case 'exited':
      return s.ExitCode === 0 ? state('loaded', 'inactive', 'exited') : state('loaded', 'failed', 'failed');
    case 'dead':
    default:
      return state('loaded', 'failed', 'failed');
  }
}

export interface PublishedPort {
  container_port: number;
  proto: string;
  host_interface: string | null;
  host_port: number | null;
}

export interface ContainerStatus {
  id: string;
  image: string;
  /** The engine's word: created, running, paused, restarting, removing, exited, dead. */
  state: string;
  /** For people: "Up since ...", "Exited (1) at ...". */
  status: string;
  running: boolean;
  exit_code: number | null;
  started_at: string | null;
  finished_at: string | null;
  ports: PublishedPort[];
  /** The raw inspect result (the original's `docker_status.info`). */
  info: ContainerInspect;
}

/** The engine writes "0001-01-01T00:00:00Z" for "never"; everything else as ISO with ms. */
function isoOrNull(value: string | undefined): string | null {
  if (!value || value.startsWith('0001-')) return null;
  const time = new Date(value);
  return Number.isNaN(time.getTime()) ? null : time.toISOString();
}

/** The service's free-form `container_status`: `{}` when there is no container. */
export function containerStatus(inspect: ContainerInspect | null): ContainerStatus | Record<string, never> {
  if (!inspect) return {};
  const s = inspect.State;
  const startedAt = isoOrNull(s.StartedAt);
  const finishedAt = isoOrNull(s.FinishedAt);
  const hasExited = s.Status === 'exited' || s.Status === 'dead';
  const status =
    s.Status === 'running'
      ? `Up since ${startedAt}`
      : hasExited
        ? `Exited (${s.ExitCode}) at ${finishedAt}`
        : s.Status.charAt(0).toUpperCase() + s.Status.slice(1);
  return {
    id: inspect.Id,
    image: inspect.Config.Image,
    state: s.Status,
    status,
    running: s.Running,
    exit_code: hasExited ? s.ExitCode : null,
    started_at: startedAt,
    finished_at: finishedAt,
    ports: publishedPorts(inspect),
    info: inspect,
  };
}

function publishedPorts(inspect: ContainerInspect): PublishedPort[] {
  const ports: PublishedPort[] = [];
  for (const [key, bindings] of Object.entries(inspect.NetworkSettings?.Ports ?? {})) {
    const [port, proto = 'tcp'] = key.split('/');
    const base = { container_port: Number(port), proto };
    if (!bindings?.length) ports.push({ ...base, host_interface: null, host_port: null });
    for (const binding of bindings ?? []) {
      ports.push({ ...base, host_interface: binding.HostIp || null, host_port: binding.HostPort ? Number(binding.HostPort) : null });
    }
  }
  return ports.sort((a, b) => a.container_port - b.container_port || a.proto.localeCompare(b.proto));
}

/** The image's `Config.ExposedPorts` keys (`["80/tcp"]`); `[]` when unknown. */
export function defaultExposedPorts(image: ImageInspect | null | undefined): string[] {
  return Object.keys(image?.Config?.ExposedPorts ?? {}).sort();
}
