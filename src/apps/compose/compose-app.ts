import { ValidationError } from '../../errors';
import type { TemplateDefinition } from '../../catalog/template-definition';
import type { EnvDef, ImageDefinition, LinkDef, PortDef, VolumeDef, VolumesFromDef } from '../../parts/image';
import { templateProblems } from '../../catalog/template-file';
import { bareTemplate } from '../../catalog/template-shape';
import { normalizeType } from '../../catalog/template-types';
import { FIELD, loadCompose, type ComposeLoadOptions } from './loader';
import { randomBytes } from 'node:crypto';
import { readEnvFile } from './files';
import { serviceOptions, type BuildSpec } from './options';
import type { ServiceOptions } from '../service-options';
import { emptyTextParts } from '../../parts/image';

// A compose file as a template (docs/original-system.md "Compose mapping"); keys a template cannot hold become
// engine options, warnings or a 422. A volume mode stays on the container path (`/data:ro`): dropped, `ro` would turn `rw`.

export const COMPOSE_TEMPLATE_NAME = 'App From Compose Yaml';

interface Problem {
  path: string;
  message: string;
}

export interface ComposeApp {
  definition: TemplateDefinition;
  name: string | null;
  /** By service name. */
  options: Map<string, ServiceOptions>;
  /** Accepted but not honoured as written: shown on the app. */
  warnings: string[];
  /** By service name: built as the first step of starting it. */
  builds: Map<string, BuildSpec & { tag: string }>;
}

/** Every problem at once: a 422 on compose_yaml naming each key. */
export function loadComposeApp(text: string, load: ComposeLoadOptions = {}): ComposeApp {
  const model = loadCompose(text, load);
  const problems: Problem[] = [];
  const warnings = [...model.warnings];
  const names = Object.keys(model.services);
  const options = new Map<string, ServiceOptions>();
  const builds = new Map<string, BuildSpec & { tag: string }>();
  const images = names.map((name) => {
    const svc = model.services[name] ?? {};
    const mapped = serviceOptions(name, svc, model);
    options.set(name, mapped.options);
    if (mapped.build) {
      // Compose tags a built image as the service's `image:` when it has one.
      const tag = typeof svc.image === 'string' && svc.image.trim() ? svc.image.trim() : builtImageTag(model.name, name);
      builds.set(name, { ...mapped.build, tag });
      if (tag !== svc.image) mapped.options.builtImage = tag;
      mapped.options.buildContext = mapped.build.context;
    }
    warnings.push(...mapped.warnings);
    for (const message of mapped.problems) {
      const colon = message.indexOf(': ');
      problems.push({ path: message.slice(0, colon), message: message.slice(colon + 2) });
    }
    const unset: string[] = [];
    const image = readService(name, svc, problems, builds.get(name)?.tag, model.environment, unset);
    if (svc.env_file != null && model.directory) image.environment = withEnvFiles(name, svc.env_file, image.environment, model, problems);
    // Named without a value and not in the request's environment: unset in the container, not empty.
    const absent = unset.filter((variable) => !image.environment.some((e) => e.variable === variable));
    if (absent.length) mapped.options.unsetEnvironment = absent;
    const readOnly = (Array.isArray(svc.volumes_from) ? svc.volumes_from : []).flatMap((item) => {
      const from = typeof item === 'string' ? volumesFromParts(item) : null;
      return from?.mode === 'ro' ? [from.service] : [];
    });
    if (readOnly.length) mapped.options.readOnlyVolumesFrom = readOnly;
    return image;
  });
  const template = bareTemplate(model.name ?? COMPOSE_TEMPLATE_NAME, images);
  // The one validator, speaking of services by their compose names (not of images by index).
  for (const p of templateProblems(template, { at: (i) => `services.${names[i]}`, appVolumes: true })) {
    // A missing image was already explained (build-only, or none given).
    const service = p.path.slice(0, -'.source'.length);
    if (p.path.endsWith('.source') && problems.some((q) => q.path === service || q.path.startsWith(`${service}.build`))) continue;
    problems.push({ path: p.path, message: p.message });
  }
  if (problems.length > 0) {
    throw new ValidationError(`compose_yaml: ${problems.map((p) => `${p.path}: ${p.message}`).join('; ')}`, [FIELD]);
  }
  return { definition: template, name: model.name, options, warnings: [...new Set(warnings)], builds };
}

export function parseComposeYaml(text: string, load: ComposeLoadOptions = {}): TemplateDefinition {
  return loadComposeApp(text, load).definition;
}

// A new tag per app made, so deleting one app's image never touches another's.
function builtImageTag(project: string | null, service: string): string {
  const slug = (text: string) =>
    text
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, '-')
      .replace(/^-+|-+$/g, '') || 'app';
  return `platform-build/${slug(project ?? 'app')}-${slug(service)}:${randomBytes(6).toString('hex')}`;
}

/** The service's own `environment` wins over its env files. */
function withEnvFiles(name: string, value: unknown, own: EnvDef[], model: ReturnType<typeof loadCompose>, problems: Problem[]): EnvDef[] {
  const at = `services.${name}.env_file`;
  const entries = (Array.isArray(value) ? value : [value]).map((item) =>
    isMapping(item) ? { path: String(item.path), required: item.required !== false } : { path: String(item), required: true },
  );
  const merged = new Map<string, string>();
  for (const entry of entries) {
    const read = readEnvFile(model.directory!, entry.path);
    if ('problem' in read) {
      if (entry.required || !/does not exist/.test(read.problem)) problems.push({ path: at, message: read.problem });
      continue;
    }
    for (const [variable, v] of Object.entries(read.variables)) merged.set(variable, v);
  }
  for (const env of own) merged.set(env.variable, env.value);
  return [...merged].map(([variable, v]) => ({ variable, value: v }));
}

function readService(
  name: string,
  raw: unknown,
  problems: Problem[],
  builtTag: string | undefined,
  env: Record<string, string>,
  unset: string[],
): ImageDefinition {
  const at = `services.${name}`;
  const add = (path: string, message: string) => problems.push({ path, message });
  const svc = isMapping(raw) ? raw : {};
  if (!isMapping(raw)) add(at, 'must be a mapping (image, ports, ...)');

  let source = '';
  if (builtTag) source = builtTag;
  else if (typeof svc.image === 'string' && svc.image.trim() !== '') source = svc.image.trim();
  else if (svc.build === undefined) add(at, 'has no image:');

  // `read` answers null for an item that is not a template field (a tmpfs volume: compose/options.ts).
  const each = <T>(key: string, read: (item: unknown, path: string) => T | string | null): T[] =>
    asList(svc[key], `${at}.${key}`, add).flatMap((item, i) => {
      const result = read(item, `${at}.${key}[${i}]`);
      if (typeof result === 'string') {
        add(`${at}.${key}[${i}]`, result);
        return [];
      }
      return result === null ? [] : [result];
    });

  return {
    name,
    source,
    ...emptyTextParts(),
    type: normalizeType(null),
    command: readCommand(svc.command, `${at}.command`, add),
    restart_policy: svc.restart == null ? null : typeof svc.restart === 'string' ? svc.restart.trim() : JSON.stringify(svc.restart),
    // TCP, the default, stays a bare number; another protocol is kept (`53/udp`).
    expose: each('expose', (item) =>
      typeof item === 'number' || typeof item === 'string'
        ? {
            port: String(item)
              .trim()
              .replace(/\/tcp$/i, '')
              .replace(/\/(udp|sctp)$/i, (p) => p.toLowerCase()),
          }
        : `must be a port number, got ${describe(item)}`,
    ).map((e) => e.port),
    ports: each('ports', readPort).flat(),
    links: each('links', readLink),
    environment: readEnvironment(svc.environment, `${at}.environment`, add, env, unset),
    volumes: each('volumes', readVolume),
    volumes_from: each('volumes_from', readVolumesFrom),
    deployment: readReplicas(svc, `${at}.deploy.replicas`, add),
  };
}

/** A range is one mapping per port, as docker's `-p` makes; a host range for one container port is refused. */
export function readPort(item: unknown): PortDef[] | string {
  if (isMapping(item)) {
    const target = portRange(item.target);
    if (typeof target === 'string') return `target: ${target}`;
    let published: [number, number] | string | null = null;
    if (item.published != null && item.published !== '') {
      published = portRange(item.published);
      if (typeof published === 'string') return `published: ${published}`;
    }
    const proto = typeof item.protocol === 'string' ? item.protocol.toUpperCase() : 'TCP';
    const hostIp = item.host_ip != null ? (typeof item.host_ip === 'string' ? item.host_ip : JSON.stringify(item.host_ip)) : undefined;
    return (
      mappings(target, published, proto, hostIp) ?? `published ${rangeText(published!)} and target ${rangeText(target)} differ in size`
    );
  }
  if (typeof item === 'number') {
    const container = portNumber(item);
    return typeof container === 'string' ? container : [{ container_port: container, proto: 'TCP' }];
  }
  if (typeof item !== 'string') return `must be a port mapping, got ${describe(item)}`;
  let spec = item.trim();
  let proto = 'TCP';
  const slash = spec.lastIndexOf('/');
  if (slash >= 0) {
    proto = spec.slice(slash + 1).toUpperCase();
    spec = spec.slice(0, slash);
  }
  let hostIp: string | undefined;
  const v6 = /^\[([^\]]+)\]:(.*)$/.exec(spec);
  if (v6) [, hostIp, spec] = v6;
  const parts = spec.split(':');
  if (parts.length > 3 || (hostIp !== undefined && parts.length !== 2)) return `"${item}" is not a port mapping`;
  if (parts.length === 3) hostIp = parts.shift();
  const container = portRange(parts.pop());
  if (typeof container === 'string') return `"${item}": ${container}`;
  const host = parts.pop();
  let published: [number, number] | null = null;
  if (host !== undefined && host !== '') {
    const range = portRange(host);
    if (typeof range === 'string') return `"${item}": ${range}`;
    published = range;
  }
  return (
    mappings(container, published, proto, hostIp || undefined) ??
    `"${item}": the host and container ranges differ in size (a host range for one container port is not supported: give one host port)`
  );
}

/** Null when the ranges cannot be paired. */
function mappings(container: [number, number], host: [number, number] | null, proto: string, hostIp?: string): PortDef[] | null {
  const count = container[1] - container[0] + 1;
  const hostCount = host ? host[1] - host[0] + 1 : count;
  const one = (containerPort: number, hostPort?: number): PortDef => ({
    ...(hostIp !== undefined ? { host_interface: hostIp } : {}),
    ...(hostPort !== undefined ? { host_port: hostPort } : {}),
    container_port: containerPort,
    proto,
  });
  if (hostCount !== count) return null;
  return Array.from({ length: count }, (_, i) => one(container[0] + i, host ? host[0] + i : undefined));
}

function portRange(value: unknown): [number, number] | string {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  const range = /^(\d+)-(\d+)$/.exec(text);
  if (range) {
    const [first, last] = [portNumber(range[1]), portNumber(range[2])];
    if (typeof first === 'string') return first;
    if (typeof last === 'string') return last;
    if (last < first) return `"${text}" is not a port range (it ends before it starts)`;
    // A mapping per port: a range is bounded so that one line cannot make thousands of them.
    if (last - first >= 1000) return `"${text}" spans more than 1000 ports`;
    return [first, last];
  }
  const port = portNumber(text);
  return typeof port === 'string' ? port : [port, port];
}

function rangeText([first, last]: [number, number]): string {
  return first === last ? String(first) : `${first}-${last}`;
}

function portNumber(value: unknown): number | string {
  const text = typeof value === 'number' ? String(value) : typeof value === 'string' ? value.trim() : '';
  if (!/^\d{1,5}$/.test(text) || Number(text) < 1 || Number(text) > 65535) return `"${text}" is not a port number`;
  return Number(text);
}

function readLink(item: unknown): LinkDef | string {
  if (typeof item !== 'string' || item.trim() === '') return `must be "service" or "service:alias", got ${describe(item)}`;
  const [service, alias] = item.trim().split(':', 2);
  return { service, alias: alias || service };
}

export function readVolume(item: unknown): VolumeDef | string | null {
  if (isMapping(item)) {
    // A tmpfs is a mount option of the container (compose/options.ts), not a volume.
    if (item.type === 'tmpfs') return null;
    if (item.type !== undefined && item.type !== 'bind' && item.type !== 'volume')
      return `volumes of type ${describe(item.type)} are not supported`;
    if (typeof item.target !== 'string' || item.target.trim() === '') return 'target: the container path is missing';
    const container = item.read_only === true ? `${item.target}:ro` : item.target;
    return typeof item.source === 'string' && item.source !== ''
      ? { host_path: item.source, container_path: container }
      : { container_path: container };
  }
  if (typeof item !== 'string' || item.trim() === '') return `must be a volume, got ${describe(item)}`;
  const parts = item.trim().split(':');
  if (parts.length === 1) return { container_path: parts[0] };
  if (parts.length > 3) return `"${item}" is not a volume (host:container[:mode])`;
  const [host, container, mode] = parts;
  return { host_path: host, container_path: mode && mode !== 'rw' ? `${container}:${mode}` : container };
}

/** `name[:mode]`, `service:name[:mode]` (v2 syntax) or `container:name[:mode]`. */
function volumesFromParts(item: string): { service: string; mode: string | null; container: boolean } {
  const parts = item.trim().split(':');
  const prefixed = (parts[0] === 'service' || parts[0] === 'container') && parts.length > 1;
  const [service, mode = null] = prefixed ? parts.slice(1) : parts;
  return { service, mode, container: prefixed && parts[0] === 'container' };
}

function readVolumesFrom(item: unknown): VolumesFromDef | string {
  if (typeof item !== 'string' || item.trim() === '') return `must be a service name, got ${describe(item)}`;
  const from = volumesFromParts(item);
  if (from.container) return `"${item}": only services of this file can share volumes, not containers`;
  if (from.mode !== null && from.mode !== 'ro' && from.mode !== 'rw') return `"${item}": the mode must be ro or rw`;
  // The mode is the service's option (readOnlyVolumesFrom): a template has no room for it.
  return { service: from.service };
}

/** A name without a value takes it from `env`, as compose from the shell's; else it is listed in `unset`, not made empty. */
function readEnvironment(
  value: unknown,
  at: string,
  add: (path: string, message: string) => void,
  env: Record<string, string>,
  unset: string[],
): EnvDef[] {
  const fromEnv = (variable: string): EnvDef[] => {
    if (env[variable] !== undefined) return [{ variable, value: env[variable] }];
    unset.push(variable);
    return [];
  };
  if (isMapping(value)) {
    return Object.entries(value).flatMap(([variable, v]) =>
      v == null ? fromEnv(variable) : [{ variable, value: typeof v === 'string' ? v : JSON.stringify(v) }],
    );
  }
  return asList(value, at, add).flatMap((item, i) => {
    if (typeof item !== 'string') {
      add(`${at}[${i}]`, `must be "NAME=value", got ${describe(item)}`);
      return [];
    }
    const eq = item.indexOf('=');
    return eq < 0 ? fromEnv(item.trim()) : [{ variable: item.slice(0, eq).trim(), value: item.slice(eq + 1) }];
  });
}

function readCommand(value: unknown, at: string, add: (path: string, message: string) => void): string | null {
  if (value == null || value === '') return null;
  if (typeof value === 'string') return value;
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' || typeof v === 'number')) {
    return value.map((v) => shellQuote(String(v))).join(' ');
  }
  add(at, `must be a string or a list of strings, got ${describe(value)}`);
  return null;
}

function readReplicas(svc: Record<string, unknown>, at: string, add: (path: string, message: string) => void): { count: number } | null {
  const replicas = isMapping(svc.deploy) ? svc.deploy.replicas : svc.scale;
  if (replicas == null) return null;
  if (typeof replicas === 'number' && Number.isInteger(replicas) && replicas >= 0) return { count: replicas };
  add(at, `must be a whole number, got ${describe(replicas)}`);
  return null;
}

/** POSIX shell quoting. */
export function shellQuote(word: string): string {
  if (/^[A-Za-z0-9_@%+=:,./-]+$/.test(word)) return word;
  return `'${word.replace(/'/g, `'\\''`)}'`;
}

function asList(value: unknown, at: string, add: (path: string, message: string) => void): unknown[] {
  if (value == null) return [];
  if (Array.isArray(value)) return value;
  add(at, `must be a list, got ${describe(value)}`);
  return [];
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function describe(value: unknown): string {
  if (value == null) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (isMapping(value)) return 'a mapping';
  return JSON.stringify(value);
}
