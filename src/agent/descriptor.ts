import { z } from 'zod';
import { BadRequestError, ValidationError } from '../errors';

/**
 * The DeploymentDescriptor of interface B: `{template, override?: {images}}`. Checking is in two
 * passes: types first (a string where an array belongs is a malformed body: 400), then the rules
 * of interface B (required names, ports, paths; known link targets; a sane count: 422). Both name
 * every offending field, e.g. `template.images[0].ports[1].container_port`.
 */
export const MAX_COUNT = 100;

export interface Port {
  host_interface?: string;
  host_port?: number;
  container_port: number;
  proto?: 'TCP' | 'UDP';
}
export interface Link {
  service: string;
  alias: string;
}
export interface Volume {
  host_path?: string;
  container_path: string;
}
export interface VolumeFrom {
  service: string;
}
export interface EnvironmentVariable {
  variable: string;
  value: string;
}
export interface TemplateImage {
  name: string;
  source?: string;
  category?: string;
  description?: string;
  type?: string;
  command?: string;
  expose?: string[];
  ports?: Port[];
  links?: Link[];
  volumes?: Volume[];
  volumes_from?: VolumeFrom[];
  environment?: EnvironmentVariable[];
  deployment?: { count: number };
}
/** The merged template an agent stores and hands to its adapter. */
export interface DeployTemplate {
  /** The main service's template id, when the descriptor carries one. */
  id?: number;
  name?: string;
  description?: string;
  keywords?: string;
  source?: string;
  type?: string;
  image_count?: number;
  documentation?: string;
  images: TemplateImage[];
}

const optional = <T extends z.ZodType>(type: T) => type.nullish().transform((value) => value ?? undefined);
const text = optional(z.string());
const scalar = optional(z.union([z.string(), z.number()]));
const list = <T extends z.ZodType>(item: T) => optional(z.array(item));

const imageShape = z.object({
  name: text,
  source: text,
  category: text,
  description: text,
  type: text,
  command: text,
  expose: list(z.union([z.string(), z.number()]).transform(String)),
  ports: list(z.object({ host_interface: text, host_port: scalar, container_port: scalar, proto: text })),
  links: list(z.object({ service: text, alias: text })),
  volumes: list(z.object({ host_path: text, container_path: text })),
  volumes_from: list(z.object({ service: text })),
  environment: list(z.object({ variable: text, value: optional(z.union([z.string(), z.number(), z.boolean()]).transform(String)) })),
  deployment: optional(z.object({ count: scalar })),
});
type ImageShape = z.output<typeof imageShape>;

const descriptorShape = z.object({
  template: optional(
    z.object({
      id: scalar,
      name: text,
      description: text,
      keywords: text,
      source: text,
      type: text,
      image_count: scalar,
      documentation: text,
      images: list(imageShape),
    }),
  ),
  override: optional(z.object({ images: list(imageShape) })),
});

export function parseDescriptor(body: unknown): DeployTemplate {
  const parsed = descriptorShape.safeParse(body);
  if (!parsed.success) {
    const fields = [...new Set(parsed.error.issues.map((issue) => fieldName(issue.path)))];
    throw new BadRequestError(`The deployment descriptor is malformed: ${describe(parsed.error.issues[0])}.`, fields);
  }
  const { template, override } = parsed.data;
  const problems = new Problems();
  if (!template) problems.add('template', 'is required');
  const templateImages = template?.images ?? [];
  if (template && templateImages.length === 0) problems.add('template.images', 'must list at least one image');
  const images = templateImages.map((image, i) => checkImage(image, `template.images[${i}]`, problems));
  const overrides = (override?.images ?? []).map((image, i) => checkImage(image, `override.images[${i}]`, problems));
  const templateId = checkTemplateId(template?.id, problems);
  problems.throwIfAny();

  const byName = new Map<string, number>();
  images.forEach((image, i) => {
    if (byName.has(image.name)) problems.add(`template.images[${i}].name`, `repeats the image name "${image.name}"`);
    byName.set(image.name, i);
  });
  overrides.forEach((image, i) => {
    if (!byName.has(image.name)) {
      problems.add(`override.images[${i}].name`, `names no image of the template ("${image.name}")`);
    }
  });
  problems.throwIfAny();
  for (const image of overrides) {
    const index = byName.get(image.name)!;
    images[index] = mergeImage(images[index], image);
  }
  images.forEach((image, i) => {
    image.links?.forEach((link, j) => {
      if (!byName.has(link.service))
        problems.add(`template.images[${i}].links[${j}].service`, `names no image of the template ("${link.service}")`);
    });
    image.volumes_from?.forEach((from, j) => {
      if (!byName.has(from.service))
        problems.add(`template.images[${i}].volumes_from[${j}].service`, `names no image of the template ("${from.service}")`);
    });
  });
  problems.throwIfAny();

  const { images: _images, id: _id, image_count: imageCount, ...rest } = template!;
  const merged: DeployTemplate = { ...rest, images };
  if (templateId !== undefined) merged.id = templateId;
  if (imageCount !== undefined) merged.image_count = Number(imageCount);
  return dropUndefined(merged);
}

/**
 * ARCHITECTURE §5: override images match template images by `name`; environment merges by
 * `variable`, ports by `container_port`, volumes by `container_path` (same key replaces in place,
 * a new key is appended); `deployment` is replaced; any other field given replaces the template's.
 */
export function mergeImage(base: TemplateImage, override: TemplateImage): TemplateImage {
  const merged: TemplateImage = { ...base };
  for (const [key, value] of Object.entries(override) as [keyof TemplateImage, unknown][]) {
    if (value === undefined || key === 'name') continue;
    if (key === 'environment') merged.environment = mergeBy(base.environment, override.environment!, (e) => e.variable);
    else if (key === 'ports') merged.ports = mergeBy(base.ports, override.ports!, (p) => String(p.container_port));
    else if (key === 'volumes') merged.volumes = mergeBy(base.volumes, override.volumes!, (v) => v.container_path);
    else (merged as unknown as Record<string, unknown>)[key] = value;
  }
  return merged;
}

function mergeBy<T>(base: T[] | undefined, extra: T[], key: (item: T) => string): T[] {
  const result = [...(base ?? [])];
  for (const item of extra) {
    const at = result.findIndex((existing) => key(existing) === key(item));
    if (at >= 0) result[at] = item;
    else result.push(item);
  }
  return result;
}

function checkImage(image: ImageShape, at: string, problems: Problems): TemplateImage {
  if (!image.name?.trim()) problems.add(`${at}.name`, 'is required');
  const ports = image.ports?.map((port, j): Port => {
    const where = `${at}.ports[${j}]`;
    const containerPort = portNumber(port.container_port, `${where}.container_port`, problems, true);
    const hostPort = portNumber(port.host_port, `${where}.host_port`, problems, false);
    const proto = port.proto?.toUpperCase();
    if (proto !== undefined && proto !== 'TCP' && proto !== 'UDP') problems.add(`${where}.proto`, 'must be TCP or UDP');
    return dropUndefined({
      host_interface: port.host_interface || undefined,
      host_port: hostPort,
      container_port: containerPort ?? 0,
      proto: proto as Port['proto'],
    });
  });
  image.links?.forEach((link, j) => {
    if (!link.service?.trim()) problems.add(`${at}.links[${j}].service`, 'is required');
    if (!link.alias?.trim()) problems.add(`${at}.links[${j}].alias`, 'is required');
  });
  image.volumes?.forEach((volume, j) => {
    if (!volume.container_path?.trim()) problems.add(`${at}.volumes[${j}].container_path`, 'is required');
    else if (!volume.container_path.startsWith('/')) problems.add(`${at}.volumes[${j}].container_path`, 'must be an absolute path');
  });
  image.volumes_from?.forEach((from, j) => {
    if (!from.service?.trim()) problems.add(`${at}.volumes_from[${j}].service`, 'is required');
  });
  image.environment?.forEach((variable, j) => {
    if (!variable.variable?.trim()) problems.add(`${at}.environment[${j}].variable`, 'is required');
    if (variable.value === undefined) problems.add(`${at}.environment[${j}].value`, 'is required');
  });
  let deployment: TemplateImage['deployment'];
  if (image.deployment) {
    const count = Number(image.deployment.count ?? 1);
    if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT || image.deployment.count === '') {
      problems.add(`${at}.deployment.count`, `must be an integer from 1 to ${MAX_COUNT}`);
    }
    deployment = { count };
  }
  return dropUndefined({
    ...image,
    name: image.name?.trim() ?? '',
    ports,
    links: image.links as Link[] | undefined,
    volumes: image.volumes as Volume[] | undefined,
    volumes_from: image.volumes_from as VolumeFrom[] | undefined,
    environment: image.environment as EnvironmentVariable[] | undefined,
    deployment,
  });
}

function portNumber(value: string | number | undefined, field: string, problems: Problems, required: boolean): number | undefined {
  if (value === undefined || value === '') {
    if (required) problems.add(field, 'is required');
    return undefined;
  }
  const port = Number(value);
  if (!Number.isInteger(port) || port < (required ? 1 : 0) || port > 65535) {
    problems.add(field, 'must be a port number');
    return undefined;
  }
  return port;
}

function checkTemplateId(value: string | number | undefined, problems: Problems): number | undefined {
  if (value === undefined || value === '') return undefined;
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 0) problems.add('template.id', 'must be a non-negative integer');
  return id;
}

class Problems {
  private readonly entries: [string, string][] = [];

  add(field: string, message: string): void {
    this.entries.push([field, message]);
  }

  throwIfAny(): void {
    if (this.entries.length === 0) return;
    const summary = this.entries
      .slice(0, 5)
      .map(([field, message]) => `${field} ${message}`)
      .join('; ');
    const more = this.entries.length > 5 ? ` (and ${this.entries.length - 5} more)` : '';
    throw new ValidationError(`The deployment descriptor is invalid: ${summary}${more}.`, [
      ...new Set(this.entries.map(([field]) => field)),
    ]);
  }
}

function fieldName(path: PropertyKey[]): string {
  return (
    path.reduce<string>(
      (name, part) => (typeof part === 'number' ? `${name}[${part}]` : name ? `${name}.${String(part)}` : String(part)),
      '',
    ) || 'body'
  );
}

function describe(issue: z.core.$ZodIssue | undefined): string {
  return issue ? `${fieldName(issue.path)}: ${issue.message}` : 'unknown problem';
}

function dropUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
