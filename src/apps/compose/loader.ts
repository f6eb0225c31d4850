import Ajv2019 from 'ajv/dist/2019';
import type { ErrorObject } from 'ajv';
import { BadRequestError, DomainError, ValidationError } from '../../errors';
import type { ComposeDirectory } from './files';
import { interpolateTree } from './interpolate';
import { parseComposeDocument } from './yaml';
// An import (not a require) so that the build copies the file next to the compiled loader.
import composeSpec from './compose-spec.json';

// To the Compose Specification's canonical model: merge keys, interpolation, `extends`, the schema, then profiles.

export const FIELD = 'compose_yaml';

export interface ComposeLoadOptions {
  /** The request's: never the server's own environment. */
  environment?: Record<string, string>;
  profiles?: string[];
  /** The checkout env_file, `file:` secrets and build contexts are read from. */
  directory?: ComposeDirectory;
}

export type Mapping = Record<string, unknown>;

export interface ComposeModel {
  name: string | null;
  services: Record<string, Mapping>;
  networks: Record<string, Mapping | null>;
  volumes: Record<string, Mapping | null>;
  secrets: Record<string, Mapping | null>;
  configs: Record<string, Mapping | null>;
  warnings: string[];
  /** What interpolation read: secrets and configs may come from it. */
  environment: Record<string, string>;
  /** Null: a file given inline has no directory. */
  directory: ComposeDirectory | null;
}

// Vendored (its `$comment` says whence). ajv's 2019-09 build reads its `$schema` draft only unnamed,
// and older copies' `id` annotations are not ids ajv accepts.
const schema = withoutIds(composeSpec) as Mapping;
delete schema.$schema;
let validator: ReturnType<Ajv2019['compile']> | undefined;

function validate(doc: unknown): ErrorObject[] {
  validator ??= new Ajv2019({ strict: false, allErrors: true, validateFormats: false }).compile(schema);
  return validator(doc) ? [] : [...(validator.errors ?? [])];
}

export function loadCompose(text: string, options: ComposeLoadOptions = {}): ComposeModel {
  if (typeof text !== 'string' || text.trim() === '') throw new BadRequestError("compose_yaml: can't be blank", [FIELD]);
  const parsed = parseComposeDocument(text, FIELD);
  if (!isMapping(parsed)) throw new BadRequestError('compose_yaml: must be a YAML mapping of services', [FIELD]);
  const unset = new Set<string>();
  let doc: Mapping;
  try {
    doc = interpolateTree(canonicalShape(parsed), options.environment ?? {}, '', unset) as Mapping;
  } catch (error) {
    if (error instanceof DomainError) throw new ValidationError(`compose_yaml: ${error.message}`, [FIELD]);
    throw error;
  }
  const services = (doc.services ?? {}) as Record<string, Mapping>;
  if (!isMapping(services) || Object.keys(services).length === 0) throw new ValidationError('compose_yaml: no services defined', [FIELD]);
  resolveExtends(services);

  const problems = validate(doc).map(describeError);
  // Top-level keys of the specification that name what an app has no room for.
  if (doc.include !== undefined)
    problems.push('include: other compose files cannot be read: an app is made from one file; put their services in it');
  if (doc.models !== undefined) problems.push('models: AI models are not supported');
  if (problems.length > 0) throw new ValidationError(`compose_yaml: ${[...new Set(problems)].join('; ')}`, [FIELD]);

  const active = new Set(options.profiles ?? []);
  for (const [name, service] of Object.entries(services)) {
    const profiles = (service?.profiles ?? []) as string[];
    if (profiles.length > 0 && !profiles.some((p) => active.has(p))) delete services[name];
  }
  if (Object.keys(services).length === 0) {
    throw new ValidationError('compose_yaml: every service is in a profile that is not active: name one in profiles', [FIELD]);
  }
  return {
    name: typeof doc.name === 'string' ? doc.name : null,
    services,
    networks: (doc.networks ?? {}) as ComposeModel['networks'],
    volumes: (doc.volumes ?? {}) as ComposeModel['volumes'],
    secrets: (doc.secrets ?? {}) as ComposeModel['secrets'],
    configs: (doc.configs ?? {}) as ComposeModel['configs'],
    environment: options.environment ?? {},
    directory: options.directory ?? null,
    warnings: [...unset]
      .sort()
      .map((name) => `the variable ${name} is not set: it was replaced by an empty string (give it in environment)`),
  };
}

/** Compose v1 (services at the top level) becomes `services:`; `version:` is informative only. */
function canonicalShape(doc: Mapping): Mapping {
  const nested = doc.services;
  const v2 = isMapping(nested) && ('version' in doc || Object.values(nested).every((s) => s === null || isMapping(s)));
  const { version: _version, ...rest } = doc;
  if (v2) return rest;
  const services = Object.fromEntries(Object.entries(rest).filter(([key]) => !key.startsWith('x-')));
  const extensions = Object.fromEntries(Object.entries(rest).filter(([key]) => key.startsWith('x-')));
  return { ...extensions, services };
}

/** Within the file only; the child's keys win. */
function resolveExtends(services: Record<string, Mapping>): void {
  const done = new Set<string>();
  const visiting = new Set<string>();
  const resolve = (name: string): void => {
    if (done.has(name)) return;
    const service = services[name];
    if (!isMapping(service) || service.extends === undefined) {
      done.add(name);
      return;
    }
    if (visiting.has(name)) throw new ValidationError(`compose_yaml: services.${name}.extends: extends forms a cycle`, [FIELD]);
    visiting.add(name);
    const ext = service.extends;
    if (isMapping(ext) && ext.file !== undefined) {
      throw new ValidationError(
        `compose_yaml: services.${name}.extends.file: "${typeof ext.file === 'string' ? ext.file : JSON.stringify(ext.file)}" cannot be read: an app's compose file has no directory on the server; put the base service in the same file`,
        [FIELD],
      );
    }
    const base = typeof ext === 'string' ? ext : isMapping(ext) ? String(ext.service) : '';
    if (!isMapping(services[base]))
      throw new ValidationError(`compose_yaml: services.${name}.extends: "${base}" is not a service of this file`, [FIELD]);
    resolve(base);
    const { extends: _ext, ...own } = service;
    // What a service extends is not inherited: depends_on and links stay the base's own (compose's rule).
    const { depends_on: _d, links: _l, volumes_from: _v, ...inherited } = services[base];
    services[name] = merge(inherited, own) as Mapping;
    visiting.delete(name);
    done.add(name);
  };
  for (const name of Object.keys(services)) resolve(name);
}

const REPLACED = new Set(['command', 'entrypoint', 'test']);

function merge(base: unknown, over: unknown, key = ''): unknown {
  if (over === undefined) return base;
  if (isMapping(base) && isMapping(over)) {
    const out: Mapping = { ...base };
    for (const [k, v] of Object.entries(over)) out[k] = merge(base[k], v, k);
    return out;
  }
  if (Array.isArray(base) && Array.isArray(over) && !REPLACED.has(key)) {
    const [before, after] = [base as unknown[], over as unknown[]];
    const seen = new Set(before.map((v) => JSON.stringify(v)));
    return [...before, ...after.filter((v) => !seen.has(JSON.stringify(v)))];
  }
  return over;
}

function describeError(error: ErrorObject): string {
  const at = error.instancePath.split('/').filter(Boolean).join('.') || '(top level)';
  if (error.keyword === 'additionalProperties')
    return `${at}: "${String(error.params.additionalProperty)}" is not a key the Compose Specification knows`;
  return `${at}: ${error.message ?? 'is not valid'}`;
}

function withoutIds(node: unknown): unknown {
  if (Array.isArray(node)) return node.map(withoutIds);
  if (!isMapping(node)) return node;
  return Object.fromEntries(
    Object.entries(node)
      .filter(([k, v]) => !(k === 'id' && typeof v === 'string'))
      .map(([k, v]) => [k, withoutIds(v)]),
  );
}

export function isMapping(value: unknown): value is Mapping {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
