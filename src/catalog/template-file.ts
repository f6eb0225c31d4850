import YAML, { LineCounter, isNode, type Document } from 'yaml';
import { ValidationError } from '../errors';
import { Problems, type Problem } from '../problems';
import { checkParts, isBlank } from '../parts/validator';
import { checkYamlSize, toJSBounded } from '../yaml/parse';
import type { TemplateDefinition } from './template-definition';
import type { DeploymentDef, EnvDef, ImageDefinition, LinkDef, PortDef, VolumeDef, VolumesFromDef } from '../parts/image';
import { IMAGE_KEYS, imageFileForm } from '../parts/image';
import { normalizeType } from './template-types';
import { TEXT_PART_KEYS, type TextParts } from '../parts/image';

// The `.pmx` file (docs/original-system.md "Template file format"), read as the original ecosystem's tools
// read it (README "Template files: leniencies"). Unknown keys are errors at every depth, so a typo such as
// `host_prot` does not vanish.

/** `path` locates a problem for people, `field` for clients. */
export type TemplateProblem = Problem;

export class TemplateFileError extends ValidationError {
  constructor(
    message: string,
    fields: string[],
    readonly line: number | null,
  ) {
    super(message, fields);
  }
}

const TOP_KEYS = ['name', 'description', 'keywords', 'recommended', 'type', 'documentation', 'authors', 'source', 'images'];

export function parseTemplateFile(text: string, file: string): TemplateDefinition {
  try {
    checkYamlSize(text);
  } catch (error) {
    throw new TemplateFileError(`${file}: ${(error as Error).message}`, [], null);
  }
  let lines = new LineCounter();
  let doc = YAML.parseDocument(text, { lineCounter: lines });
  if (doc.errors.length > 0) {
    // Lines are only indented, never added or removed: positions stay right for the retry.
    const repaired = indentQuotedContinuations(text);
    if (repaired !== text) {
      const retryLines = new LineCounter();
      const retry = YAML.parseDocument(repaired, { lineCounter: retryLines });
      if (retry.errors.length === 0) [doc, lines] = [retry, retryLines];
    }
  }
  if (doc.errors.length > 0) {
    const error = doc.errors[0];
    throw new TemplateFileError(`${file}: not valid YAML: ${firstLine(error.message)}`, [], error.linePos?.[0].line ?? null);
  }
  let data: unknown;
  try {
    data = toJSBounded(doc);
  } catch (error) {
    throw new TemplateFileError(`${file}: not valid YAML: ${firstLine((error as Error).message)}`, [], null);
  }
  if (!isMapping(data)) {
    throw new TemplateFileError(`${file}: a template file must be a YAML mapping (name, images, ...), got ${kindOf(data)}`, [], 1);
  }
  const problems = new Problems();
  const template = readTemplate(data, problems.list);
  resolveSourceNamedLinks(template);
  // A value of the wrong type was already reported; don't report it again as blank.
  const reported = new Set(problems.list.map((p) => p.path));
  problems.list.push(...templateProblems(template).filter((p) => !reported.has(p.path)));
  if (problems.size > 0) {
    const error = problems.error({ prefix: `${file}: ` });
    throw new TemplateFileError(error.message, error.fields, lineOf(doc, lines, problems.list[0].path));
  }
  return template;
}

export function validateTemplate(t: TemplateDefinition, options: TemplateCheckOptions = {}): void {
  const problems = new Problems();
  problems.list.push(...templateProblems(t, options));
  problems.throwIfAny();
}

export interface TemplateCheckOptions {
  /** Where image i is in the input, for paths and messages; default `images[i]`. */
  at?: (index: number) => string;
  /** The template makes an app: relative host paths are refused. */
  appVolumes?: boolean;
}

/** docs/original-system.md "Service field rules": the template's own, then each image's by the one parts validator. */
export function templateProblems(t: TemplateDefinition, options: TemplateCheckOptions = {}): TemplateProblem[] {
  const problems = new Problems();
  const place = options.at ?? ((i: number) => `images[${i}]`);
  if (isBlank(t.name)) problems.add('name', "can't be blank", 'name');

  const images = t.images ?? [];
  const firstIndexOf = new Map<string, number>();
  images.forEach((image, i) => {
    if (!isBlank(image.name) && !firstIndexOf.has(image.name.trim())) firstIndexOf.set(image.name.trim(), i);
  });
  const names = new Set(firstIndexOf.keys());
  const hostPorts = new Map<string, string>();

  images.forEach((image, i) => {
    const at = place(i);
    const own = isBlank(image.name) ? undefined : image.name.trim();
    if (own === undefined) problems.add(`${at}.name`, "can't be blank", 'images.name');
    else if (firstIndexOf.get(own) !== i)
      problems.add(`${at}.name`, `"${own}" is already the name of ${place(firstIndexOf.get(own) ?? 0)}`, 'images.name');
    if (isBlank(image.source)) problems.add(`${at}.source`, "can't be blank", 'images.source');

    checkParts(image, at, problems, {
      field: (part) => `images.${part}`,
      names,
      own,
      hostPorts,
      appVolumes: options.appVolumes,
    });

    const count = image.deployment?.count;
    if (count !== undefined && count !== null && !(Number.isInteger(count) && count >= 0)) {
      problems.add(`${at}.deployment.count`, 'must be a whole number, 0 or more', 'images.deployment');
    }
  });
  return problems.list;
}

// docs/original-system.md "Serialized forms". Unlike the original, an image's `description` is written, so a
// template saved from an app loads back equal to it (the original's loader reads the key too).
export function serializeTemplateFile(t: TemplateDefinition): string {
  const body = {
    name: t.name,
    description: t.description ?? null,
    keywords: t.keywords ?? null,
    type: t.type ?? null,
    documentation: t.documentation ?? null,
    images: (t.images ?? []).map(imageFileForm),
  };
  return `---\n${YAML.stringify(body, { blockQuote: 'literal', lineWidth: 0 })}`;
}

type Found = TemplateProblem[];

function readTemplate(data: Record<string, unknown>, problems: Found): TemplateDefinition {
  unknownKeys(data, TOP_KEYS, '', '', problems);
  const images = list(data.images, 'images', 'images', problems, false);
  return {
    name: str(data.name, 'name', 'name', problems) ?? '',
    description: str(data.description, 'description', 'description', problems),
    keywords: Array.isArray(data.keywords)
      ? data.keywords
          .map((k, i) => str(k, `keywords[${i}]`, 'keywords', problems) ?? '')
          .filter((k) => k !== '')
          .join(', ')
      : str(data.keywords, 'keywords', 'keywords', problems),
    type: normalizeType(str(data.type, 'type', 'type', problems)),
    documentation: str(data.documentation, 'documentation', 'documentation', problems),
    authors: list(data.authors, 'authors', 'authors', problems, true)
      .map((a, i) => str(a, `authors[${i}]`, 'authors', problems))
      .filter((a): a is string => a !== null),
    source: str(data.source, 'source', 'source', problems),
    images: images.flatMap((raw, i) => {
      const at = `images[${i}]`;
      if (!isMapping(raw)) {
        problems.push({ path: at, field: 'images', message: `must be a mapping (name, source, ...), got ${kindOf(raw)}` });
        return [];
      }
      return [readImage(raw, at, problems)];
    }),
  };
}

function readImage(raw: Record<string, unknown>, at: string, problems: Found): ImageDefinition {
  // Early Panamax templates named the image by `repository` + `tag` instead of `source`.
  const legacy = raw.source == null && raw.repository != null;
  unknownKeys(raw, legacy ? [...IMAGE_KEYS, 'repository', 'tag'] : IMAGE_KEYS, at, 'images', problems);
  if (legacy) {
    const repository = str(raw.repository, `${at}.repository`, 'images.source', problems) ?? '';
    const tag = str(raw.tag, `${at}.tag`, 'images.source', problems);
    raw = { ...raw, source: isBlank(tag) ? repository : `${repository}:${String(tag).trim()}` };
  }
  const field = (key: string) => `images.${key}`;
  const s = (key: string) => str(raw[key], `${at}.${key}`, field(key), problems);
  const items = (key: string) =>
    list(raw[key], `${at}.${key}`, field(key), problems, true).map((item, j) => ({ item, path: `${at}.${key}[${j}]`, field: field(key) }));
  const texts = Object.fromEntries(TEXT_PART_KEYS.map((key) => [key, s(key)])) as TextParts;
  return {
    name: s('name') ?? '',
    source: s('source') ?? '',
    ...texts,
    type: normalizeType(texts.type),
    // Blank entries are what the original's UI saved for an empty field (`['', '9200']`).
    expose: items('expose')
      .map(({ item, path, field: f }) => str(item, path, f, problems) ?? '')
      .filter((e) => e.trim() !== ''),
    ports: items('ports').flatMap(({ item, path, field: f }) => readPort(item, path, f, problems)),
    links: items('links').flatMap(({ item, path, field: f }) => readLink(item, path, f, problems)),
    environment: readEnvironment(raw.environment, `${at}.environment`, field('environment'), problems),
    volumes: items('volumes').flatMap(({ item, path, field: f }) => readVolume(item, path, f, problems)),
    volumes_from: items('volumes_from').flatMap(({ item, path, field: f }) => readVolumesFrom(item, path, f, problems)),
    deployment: readDeployment(raw.deployment, `${at}.deployment`, field('deployment'), problems),
  };
}

function readPort(item: unknown, path: string, field: string, problems: Found): PortDef[] {
  const map = mapping(item, path, field, ['host_interface', 'host_port', 'container_port', 'proto'], problems);
  if (!map) return [];
  const port = {} as PortDef;
  if (map.host_interface != null) port.host_interface = str(map.host_interface, `${path}.host_interface`, field, problems);
  const hostPort = portValue(map.host_port, `${path}.host_port`, field, problems);
  if (hostPort != null) port.host_port = hostPort;
  const containerPort = portValue(map.container_port, `${path}.container_port`, field, problems);
  if (containerPort != null) port.container_port = containerPort;
  const proto = str(map.proto, `${path}.proto`, field, problems);
  if (proto != null) port.proto = proto.trim().toUpperCase();
  return [port];
}

function readLink(item: unknown, path: string, field: string, problems: Found): LinkDef[] {
  if (typeof item === 'string') {
    const [service, alias] = item.split(':', 2).map((part) => part.trim());
    return [{ service, alias: alias ?? service }];
  }
  const map = mapping(item, path, field, ['service', 'alias'], problems);
  if (!map) return [];
  return [
    { service: str(map.service, `${path}.service`, field, problems) ?? '', alias: str(map.alias, `${path}.alias`, field, problems) ?? '' },
  ];
}

function readEnvironment(value: unknown, path: string, field: string, problems: Found): EnvDef[] {
  if (isMapping(value)) {
    return Object.entries(value).map(([variable, v]) => ({ variable, value: str(v, `${path}.${variable}`, field, problems) ?? '' }));
  }
  return list(value, path, field, problems, true).flatMap((item, j) => {
    const at = `${path}[${j}]`;
    const map = mapping(item, at, field, ['variable', 'value', 'required'], problems);
    if (!map) return [];
    const env: EnvDef = {
      variable: str(map.variable, `${at}.variable`, field, problems) ?? '',
      value: str(map.value, `${at}.value`, field, problems) ?? '',
    };
    if (map.required != null) {
      if (typeof map.required === 'boolean') env.required = map.required;
      else problems.push({ path: `${at}.required`, field, message: `must be true or false, got ${kindOf(map.required)}` });
    }
    return [env];
  });
}

function readVolume(item: unknown, path: string, field: string, problems: Found): VolumeDef[] {
  const map = mapping(item, path, field, ['host_path', 'container_path'], problems);
  if (!map) return [];
  const volume = { container_path: str(map.container_path, `${path}.container_path`, field, problems) ?? '' } as VolumeDef;
  const hostPath = str(map.host_path, `${path}.host_path`, field, problems);
  return [hostPath === null ? volume : { host_path: hostPath, ...volume }];
}

function readVolumesFrom(item: unknown, path: string, field: string, problems: Found): VolumesFromDef[] {
  if (typeof item === 'string') return [{ service: item.trim() }];
  const map = mapping(item, path, field, ['service'], problems);
  return map ? [{ service: str(map.service, `${path}.service`, field, problems) ?? '' }] : [];
}

function readDeployment(value: unknown, path: string, field: string, problems: Found): DeploymentDef | null {
  if (value == null) return null;
  const map = mapping(value, path, field, ['count'], problems);
  if (!map) return null;
  if (map.count == null) return {};
  const count = typeof map.count === 'string' && /^\s*\d+\s*$/.test(map.count) ? Number(map.count) : map.count;
  if (typeof count !== 'number') {
    problems.push({ path: `${path}.count`, field, message: `must be a number, got ${kindOf(count)}` });
    return {};
  }
  return { count };
}

// libyaml reads quoted continuation lines less indented than their key; YAML 1.2 refuses them. Leading
// white space of a continuation is folded away, so indenting them leaves the value unchanged.
export function indentQuotedContinuations(text: string): string {
  const lines = text.split('\n');
  // An optional `- `, an optional key and colon, optional `&anchor`/`!tag`, then the opening quote.
  const opening = /^(\s*)(-\s+)?((?:"(?:[^"\\]|\\.)*"|'(?:[^']|'')*'|[^\s'"#][^:#]*?)\s*:\s+)?(?:[&!]\S*\s+)*(['"])/;
  for (let i = 0; i < lines.length; i++) {
    const match = opening.exec(lines[i]);
    // A quote opening a line holds the value of the key on the line before (`documentation:` then `'…`).
    const valueLine = !match?.[2] && !match?.[3] && /:\s*$/.test(previousContent(lines, i));
    if (!match || (!match[2] && !match[3] && !valueLine)) continue;
    const quote = match[4];
    let state = scanQuoted(lines[i].slice(match[0].length), quote);
    if (state === 'closed') continue;
    const indent = ' '.repeat(valueLine ? match[1].length : match[1].length + (match[2]?.length ?? 0) + 2);
    let j = i + 1;
    for (; j < lines.length && state === 'open'; j++) {
      if (lines[j].trim() !== '' && !lines[j].startsWith(indent)) lines[j] = indent + lines[j].trimStart();
      state = scanQuoted(lines[j], quote);
    }
    i = j - 1;
  }
  return lines.join('\n');
}

function previousContent(lines: string[], i: number): string {
  for (let j = i - 1; j >= 0; j--) {
    const line = lines[j].replace(/\r$/, '');
    if (line.trim() !== '' && !line.trimStart().startsWith('#')) return line;
  }
  return '';
}

function scanQuoted(rest: string, quote: string): 'open' | 'closed' {
  for (let k = 0; k < rest.length; k++) {
    const c = rest[k];
    if (quote === '"' && c === '\\') k++;
    else if (c === quote) {
      if (quote === "'" && rest[k + 1] === "'") k++;
      else return 'closed';
    }
  }
  return 'open';
}

/** The original's service name for an image source: `foo/bar:1` -> `foo_bar_1` (docs/original-system.md "Name rules"). */
function sourceServiceNames(source: string): string[] {
  const full = source.trim().replace(/[^0-9A-Za-z._-]/g, '_');
  const untagged = source
    .trim()
    .replace(/:[^:/]*$/, '')
    .replace(/[^0-9A-Za-z._-]/g, '_');
  return [...new Set([full, untagged])];
}

function resolveSourceNamedLinks(t: TemplateDefinition): void {
  const names = new Set(t.images.map((i) => i.name.trim()));
  const resolve = (service: string): string => {
    if (isBlank(service) || names.has(service.trim())) return service;
    const matches = t.images.filter((i) => !isBlank(i.source) && sourceServiceNames(i.source).includes(service.trim()));
    return matches.length === 1 ? matches[0].name.trim() : service;
  };
  for (const image of t.images) {
    for (const link of image.links) link.service = resolve(link.service);
    for (const from of image.volumes_from) from.service = resolve(from.service);
  }
}

/** The 1-based line of a problem's path (`images[1].links[0]`), or of its nearest ancestor. */
function lineOf(doc: Document, lines: LineCounter, path: string): number | null {
  const keys: (string | number)[] = [];
  for (const part of path.match(/[^.[\]]+/g) ?? []) keys.push(/^\d+$/.test(part) ? Number(part) : part);
  for (let n = keys.length; n > 0; n--) {
    const node = doc.getIn(keys.slice(0, n), true);
    if (isNode(node) && node.range) return lines.linePos(node.range[0]).line;
  }
  return null;
}

function str(value: unknown, path: string, field: string, problems: Found): string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'string') return value;
  if (typeof value === 'number' || typeof value === 'boolean') return String(value);
  problems.push({ path, field, message: `must be a string, got ${kindOf(value)}` });
  return null;
}

function portValue(value: unknown, path: string, field: string, problems: Found): number | string | null {
  if (value === null || value === undefined) return null;
  if (typeof value === 'number' || typeof value === 'string') return value;
  problems.push({ path, field, message: `must be a port number, got ${kindOf(value)}` });
  return null;
}

/** A list; null means empty. With `scalarOk` a single value stands for a one-element list. */
function list(value: unknown, path: string, field: string, problems: Found, scalarOk: boolean): unknown[] {
  if (value === null || value === undefined) return [];
  if (Array.isArray(value)) return value;
  if (scalarOk && (typeof value === 'string' || typeof value === 'number')) return [value];
  problems.push({ path, field, message: `must be a list, got ${kindOf(value)}` });
  return [];
}

function mapping(value: unknown, path: string, field: string, keys: string[], problems: Found): Record<string, unknown> | null {
  if (!isMapping(value)) {
    problems.push({ path, field, message: `must be a mapping (${keys.join(', ')}), got ${kindOf(value)}` });
    return null;
  }
  unknownKeys(value, keys, path, field, problems);
  return value;
}

function unknownKeys(map: Record<string, unknown>, allowed: readonly string[], at: string, field: string, problems: Found): void {
  for (const key of Object.keys(map)) {
    if (allowed.includes(key)) continue;
    const keyField = at === '' ? key : field === 'images' ? `images.${key}` : field;
    problems.push({ path: at, field: keyField, message: `unknown key "${key}" (known keys: ${allowed.join(', ')})` });
  }
}

function isMapping(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return 'nothing';
  if (Array.isArray(value)) return 'a list';
  if (isMapping(value)) return 'a mapping';
  return `${typeof value} ${JSON.stringify(value)}`;
}

function firstLine(text: string): string {
  return text.split('\n', 1)[0];
}
