import { TEXT_PART_KEYS, TEXT_PARTS, type TextPart, type TextPartKey } from './image';
import { volumeSourceProblem } from './names';
import type { Problems } from '../problems';
import type { EnvDef, ImageDefinition, LinkDef, PortDef, VolumeDef, VolumesFromDef } from './image';

// The one validator of a container's parts, for templates, compose, apps and interface B alike.
// A missing proto is TCP and protocols compare case-insensitively, so `80` and `80/tcp` clash (docs/contract.md).

export type Part = 'ports' | 'expose' | 'environment' | 'volumes' | 'links' | 'volumes_from' | TextPartKey;

export interface Parts extends Partial<Record<TextPartKey, string | null>> {
  ports?: readonly Partial<PortDef>[] | null;
  expose?: readonly (string | number)[] | null;
  environment?: readonly Partial<EnvDef>[] | null;
  volumes?: readonly Partial<VolumeDef>[] | null;
  links?: readonly Partial<LinkDef>[] | null;
  volumes_from?: readonly Partial<VolumesFromDef>[] | null;
}

export interface PartsScope {
  /** The error body's field for a part (`images.ports`, `ports`); interface B names the member itself. */
  field: (part: Part) => string;
  /** `people`: `images[0].ports[1]: container port can't be blank`; `descriptor`: `...ports[1].container_port is required`. */
  phrasing?: 'people' | 'descriptor';
  noun?: string;
  memberOf?: string;
  /** The names links and volumes_from may point at; without it, only blanks and repeats are checked. */
  names?: ReadonlySet<string>;
  own?: string;
  /** `80/TCP` -> where, shared by the containers checked in one go. */
  hostPorts?: Map<string, string>;
  /** Interface B sends ports typed: numbers in range, TCP or UDP. */
  strictPorts?: boolean;
  /** An app's volumes: a relative host path has no directory to resolve against. */
  appVolumes?: boolean;
  /** Interface B: a container path is absolute, an environment entry has a value. */
  strictValues?: boolean;
}

type Report = (path: string, key: string, part: Part, sentence: string, predicate: string) => void;

function reporter(problems: Problems, scope: PartsScope): Report {
  return (path, key, part, sentence, predicate) => {
    if (scope.phrasing === 'descriptor') problems.add(key ? `${path}.${key}` : path, predicate);
    else problems.add(path, sentence, scope.field(part));
  };
}

/** Every part of one container at `at` (`images[0]`, `services.web`, or '' for a lone service). */
export function checkParts(parts: Parts, at: string, problems: Problems, scope: PartsScope): void {
  checkLinks(parts.links, at, problems, scope);
  checkVolumesFrom(parts.volumes_from, at, problems, scope);
  checkPorts(parts.ports, at, problems, scope);
  checkVolumes(parts.volumes, at, problems, scope);
  checkExpose(parts.expose, at, problems, scope);
  checkEnvironment(parts.environment, at, problems, scope);
  checkTextParts(parts, at, problems, scope);
}

export function checkTextParts(parts: Parts, at: string, problems: Problems, scope: PartsScope): void {
  const report = reporter(problems, scope);
  for (const key of TEXT_PART_KEYS) {
    const rule: TextPart = TEXT_PARTS[key];
    const value = parts[key];
    const problem = rule.problem && !isBlank(value) ? rule.problem(text(value)) : null;
    if (problem) report(at ? `${at}.${key}` : key, '', key, problem, problem);
  }
}

const member = (at: string, part: Part, j: number) => (at ? `${at}.${part}[${j}]` : `${part}[${j}]`);

export function checkPorts(ports: Parts['ports'], at: string, problems: Problems, scope: PartsScope): void {
  const report = reporter(problems, scope);
  (ports ?? []).forEach((port, j) => {
    const path = member(at, 'ports', j);
    if (isBlank(port.container_port)) report(path, 'container_port', 'ports', "container port can't be blank", 'is required');
    else if (scope.strictPorts && !isPort(port.container_port, 1))
      report(path, 'container_port', 'ports', `container port ${text(port.container_port)} is not a port number`, 'must be a port number');
    if (scope.strictPorts && !isBlank(port.host_port) && !isPort(port.host_port, 0))
      report(path, 'host_port', 'ports', `host port ${text(port.host_port)} is not a port number`, 'must be a port number');
    if (scope.strictPorts && !isBlank(port.proto) && !['TCP', 'UDP'].includes(text(port.proto).toUpperCase()))
      report(path, 'proto', 'ports', 'the protocol must be TCP or UDP', 'must be TCP or UDP');
    if (!scope.hostPorts || isBlank(port.host_port)) return;
    const key = hostPortKey(port);
    const first = scope.hostPorts.get(key);
    if (first !== undefined) report(path, 'host_port', 'ports', `host port ${key} is already used by ${first}`, `${key} is already used`);
    else scope.hostPorts.set(key, path);
  });
}

export function checkExpose(expose: Parts['expose'], at: string, problems: Problems, scope: PartsScope): void {
  const report = reporter(problems, scope);
  (expose ?? []).forEach((entry, j) => {
    const value = text(entry);
    const port = value.replace(/\/(tcp|udp|sctp)$/i, '');
    if (!isPort(port, 1)) report(member(at, 'expose', j), '', 'expose', `"${value}" is not a port number`, 'must be a port number');
  });
}

export function checkEnvironment(environment: Parts['environment'], at: string, problems: Problems, scope: PartsScope): void {
  const report = reporter(problems, scope);
  (environment ?? []).forEach((env, j) => {
    const path = member(at, 'environment', j);
    if (isBlank(env.variable)) report(path, 'variable', 'environment', "variable can't be blank", 'is required');
    if (scope.strictValues && env.value === undefined) report(path, 'value', 'environment', 'the value is missing', 'is required');
  });
}

export function checkVolumes(volumes: Parts['volumes'], at: string, problems: Problems, scope: PartsScope): void {
  const report = reporter(problems, scope);
  (volumes ?? []).forEach((volume, j) => {
    const path = member(at, 'volumes', j);
    if (isBlank(volume.container_path)) report(path, 'container_path', 'volumes', "container path can't be blank", 'is required');
    else if (scope.strictValues && !text(volume.container_path).startsWith('/'))
      report(path, 'container_path', 'volumes', 'the container path must be absolute', 'must be an absolute path');
    const relative = scope.appVolumes ? volumeSourceProblem(volume.host_path) : null;
    if (relative) report(path, 'host_path', 'volumes', relative, relative);
  });
}

export function checkLinks(links: Parts['links'], at: string, problems: Problems, scope: PartsScope): void {
  const report = reporter(problems, scope);
  const noun = scope.noun ?? 'an image';
  const linked = new Set<string>();
  const aliases = new Set<string>();
  (links ?? []).forEach((link, j) => {
    const path = member(at, 'links', j);
    const service = isBlank(link.service) ? undefined : text(link.service);
    if (service === undefined) report(path, 'service', 'links', "linked service can't be blank", 'is required');
    else if (service === scope.own) report(path, 'service', 'links', `${noun} can't link to itself`, 'names the image itself');
    else if (scope.names && !scope.names.has(service))
      report(
        path,
        'service',
        'links',
        `linked service "${service}" is not ${memberOf(scope)}`,
        `names no image of the template ("${service}")`,
      );
    else if (linked.has(service)) report(path, 'service', 'links', `"${service}" is linked more than once`, 'is linked more than once');
    if (service !== undefined) linked.add(service);
    const alias = isBlank(link.alias) ? undefined : text(link.alias);
    if (alias === undefined) report(path, 'alias', 'links', "link alias can't be blank", 'is required');
    else if (aliases.has(alias)) report(path, 'alias', 'links', `alias "${alias}" is used more than once`, 'is used more than once');
    else aliases.add(alias);
  });
}

export function checkVolumesFrom(from: Parts['volumes_from'], at: string, problems: Problems, scope: PartsScope): void {
  const report = reporter(problems, scope);
  const noun = scope.noun ?? 'an image';
  const shared = new Set<string>();
  (from ?? []).forEach((entry, j) => {
    const path = member(at, 'volumes_from', j);
    const service = isBlank(entry.service) ? undefined : text(entry.service);
    if (service === undefined) report(path, 'service', 'volumes_from', "service exporting shared volumes can't be blank", 'is required');
    else if (service === scope.own)
      report(path, 'service', 'volumes_from', `${noun} can't mount its own volumes`, 'names the image itself');
    else if (scope.names && !scope.names.has(service))
      report(
        path,
        'service',
        'volumes_from',
        `service "${service}" exporting shared volumes is not ${memberOf(scope)}`,
        `names no image of the template ("${service}")`,
      );
    else if (shared.has(service))
      report(path, 'service', 'volumes_from', `"${service}" is listed more than once`, 'is listed more than once');
    if (service !== undefined) shared.add(service);
  });
}

export function referencedNames(image: Pick<ImageDefinition, 'links' | 'volumes_from'>): string[] {
  return [...image.links.map((l) => l.service.trim()), ...image.volumes_from.map((v) => v.service.trim())];
}

export function hostPortKey(port: Partial<PortDef>): string {
  return `${text(port.host_port)}/${isBlank(port.proto) ? 'TCP' : text(port.proto).toUpperCase()}`;
}

function memberOf(scope: PartsScope): string {
  return scope.memberOf ?? 'an image of this template';
}

function isPort(value: unknown, min: number): boolean {
  const digits = text(value);
  return /^\d{1,5}$/.test(digits) && Number(digits) >= min && Number(digits) <= 65535;
}

/** A scalar as text, nothing as ''; anything else as its JSON (never "[object Object]"). */
export function asText(value: unknown): string {
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  return value === null || value === undefined ? '' : JSON.stringify(value);
}

const text = (value: unknown): string => asText(value).trim();

export function isBlank(value: unknown): boolean {
  return text(value) === '';
}
