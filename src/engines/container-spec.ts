import type { ContainerCreateBody, EndpointSettings } from './docker-types';
import { shellWords } from './shell-words';

/** `later` after `first`, a later variable replacing an earlier one of the same name. */
export function mergeEnvironment(first: string[], later: string[]): string[] {
  const byName = new Map<string, string>();
  for (const entry of [...first, ...later]) byName.set(entry.split('=', 1)[0], entry);
  return [...byName.values()];
}

export interface ServicePort {
  host_interface?: string | null;
  host_port?: string | number | null;
  container_port: string | number;
  proto?: string | null;
}

export interface ServiceDefinition {
  name: string;
  image: string;
  command?: string | null;
  environment: Array<{ variable: string; value: string | null | undefined }>;
  ports: ServicePort[];
  expose: Array<string | number>;
  volumes: Array<{ host_path?: string | null; container_path: string }>;
  volumesFrom: string[];
  links: Array<{ service: string; alias: string }>;
  labels: Record<string, string>;
  network?: { name: string; aliases: string[]; ipv4Address?: string };
  restart?: string | null;
  /** The legacy link variables: the service's own environment wins on a clash. */
  extraEnvironment?: string[];
  /** Variables to unset (the image's too), unless set by the service's own or extra environment. */
  unsetEnvironment?: string[];
  /** Further fields of the create body and of its HostConfig, already in the engine's names. */
  engine?: { config?: Record<string, unknown>; hostConfig?: Record<string, unknown> };
}

/** The create body's Env: a bare `NAME` is the engine's way to unset a variable the image sets. */
function environment(service: ServiceDefinition, own: string[]): string[] {
  const first = [...(service.unsetEnvironment ?? []), ...(service.extraEnvironment ?? [])];
  return first.length ? mergeEnvironment(first, own) : own;
}

/** `80` + `UDP` → `80/udp`; anything but UDP is TCP, as in the original's `-p` flag. */
export function portKey(port: string | number, proto?: string | null): string {
  const text = String(port).trim();
  if (text.includes('/')) return text.toLowerCase();
  return `${text}/${proto?.toUpperCase() === 'UDP' ? 'udp' : 'tcp'}`;
}

/** An empty HostIp defers to `dockerd --ip`; on a network, links are network-scoped so the target may come later. */
export function containerSpec(service: ServiceDefinition): ContainerCreateBody {
  const words = service.command?.trim() ? shellWords(service.command) : [];
  const exposed: ContainerCreateBody['ExposedPorts'] = {};
  const bindings: ContainerCreateBody['HostConfig']['PortBindings'] = {};
  for (const port of service.ports) {
    const key = portKey(port.container_port, port.proto);
    exposed[key] = {};
    (bindings[key] ??= []).push({
      HostIp: port.host_interface?.trim() ?? '',
      HostPort: port.host_port === undefined || port.host_port === null ? '' : String(port.host_port).trim(),
    });
  }
  for (const port of service.expose) exposed[portKey(port)] = {};

  const volumes: ContainerCreateBody['Volumes'] = {};
  const binds: string[] = [];
  for (const volume of service.volumes) {
    if (volume.host_path?.trim()) binds.push(`${volume.host_path.trim()}:${volume.container_path}`);
    else volumes[volume.container_path] = {};
  }

  const links = service.links.map((link) => `${link.service}:${link.alias}`);
  const own = service.environment.map((env) => `${env.variable}=${env.value ?? ''}`);
  const body: ContainerCreateBody = {
    ...service.engine?.config,
    Image: service.image,
    ...(words.length ? { Cmd: words } : {}),
    Env: environment(service, own),
    Labels: { ...(service.engine?.config?.Labels as Record<string, string> | undefined), ...service.labels },
    ExposedPorts: exposed,
    Volumes: volumes,
    HostConfig: { ...service.engine?.hostConfig, PortBindings: bindings, Binds: binds, VolumesFrom: [...service.volumesFrom] },
  };
  if (service.restart) body.HostConfig.RestartPolicy = enginePolicy(service.restart);
  if (service.network) {
    const endpoint: EndpointSettings = { Aliases: [...service.network.aliases] };
    if (service.network.ipv4Address) endpoint.IPAMConfig = { IPv4Address: service.network.ipv4Address };
    if (links.length) endpoint.Links = links;
    body.HostConfig.NetworkMode = service.network.name;
    body.NetworkingConfig = { EndpointsConfig: { [service.network.name]: endpoint } };
  } else if (links.length) {
    body.HostConfig.Links = links;
  }
  return body;
}

/** `on-failure:3` as the engine's HostConfig.RestartPolicy (`no` is its empty name). */
export function enginePolicy(policy: string): { Name: string; MaximumRetryCount?: number } {
  const [name, retries] = policy.split(':');
  return { Name: name === 'no' ? '' : name, ...(retries ? { MaximumRetryCount: Number(retries) } : {}) };
}
