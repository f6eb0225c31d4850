import type { ContainerInspect, ImageInspect } from './docker-types';

export interface ServiceState {
  load_state: string | null;
  active_state: string | null;
  sub_state: string | null;
}

/** null: no container; 'unreachable': the engine is down. */
export type ContainerObservation = ContainerInspect | null | 'pulling' | 'unreachable';

const state = (load: string | null, active: string | null, sub: string | null): ServiceState => ({
  load_state: load,
  active_state: active,
  sub_state: sub,
});

/** Beyond the contract's table: health `starting` is start-pre, paused is running (its processes exist). */
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
  state: string;
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

export function defaultExposedPorts(image: ImageInspect | null | undefined): string[] {
  return Object.keys(image?.Config?.ExposedPorts ?? {}).sort();
}
