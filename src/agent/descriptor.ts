import { z } from 'zod';
import {
  checkEnvironment,
  checkLinks,
  checkPorts,
  checkTextParts,
  checkVolumes,
  checkVolumesFrom,
  isBlank,
  type PartsScope,
} from '../parts/validator';
import { mergeImage } from '../parts/merge';
import { BadRequestError } from '../errors';
import { Problems } from '../problems';
import { TEXT_PART_KEYS, type TextPartKey } from '../parts/image';

// Checked in two passes: types first (a string where an array belongs: 400), then interface B's
// rules (422); both name every offending field, e.g. `template.images[0].ports[1].container_port`.
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
export type DeployImage = Partial<Record<TextPartKey, string>> & {
  name: string;
  source?: string;
  expose?: string[];
  ports?: Port[];
  links?: Link[];
  volumes?: Volume[];
  volumes_from?: VolumeFrom[];
  environment?: EnvironmentVariable[];
  deployment?: { count: number };
};
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
  images: DeployImage[];
}

const optional = <T extends z.ZodType>(type: T) => type.nullish().transform((value) => value ?? undefined);
const text = optional(z.string());
const scalar = optional(z.union([z.string(), z.number()]));
const list = <T extends z.ZodType>(item: T) => optional(z.array(item));

const imageShape = z.object({
  name: text,
  source: text,
  ...(Object.fromEntries(TEXT_PART_KEYS.map((key) => [key, text])) as Record<TextPartKey, typeof text>),
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
  const invalid = { prefix: 'The deployment descriptor is invalid: ', separator: ' ', limit: 5, suffix: '.' };
  if (!template) problems.add('template', 'is required');
  const templateImages = template?.images ?? [];
  if (template && templateImages.length === 0) problems.add('template.images', 'must list at least one image');
  const images = templateImages.map((image, i) => checkImage(image, `template.images[${i}]`, problems));
  const overrides = (override?.images ?? []).map((image, i) => checkImage(image, `override.images[${i}]`, problems));
  const templateId = checkTemplateId(template?.id, problems);
  problems.throwIfAny(invalid);

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
  problems.throwIfAny(invalid);
  for (const image of overrides) {
    const index = byName.get(image.name)!;
    images[index] = mergeImage(images[index], image);
  }
  const names = new Set(byName.keys());
  images.forEach((image, i) => {
    checkLinks(image.links, `template.images[${i}]`, problems, { ...DESCRIPTOR_RULES, names, own: image.name });
    checkVolumesFrom(image.volumes_from, `template.images[${i}]`, problems, { ...DESCRIPTOR_RULES, names, own: image.name });
  });
  problems.throwIfAny(invalid);

  const { images: _images, id: _id, image_count: imageCount, ...rest } = template!;
  const merged: DeployTemplate = { ...rest, images };
  if (templateId !== undefined) merged.id = templateId;
  if (imageCount !== undefined) merged.image_count = Number(imageCount);
  return dropUndefined(merged);
}

/** Interface B's phrasing of the one validator: each member's path, then a predicate. */
const DESCRIPTOR_RULES: PartsScope = { field: () => '', phrasing: 'descriptor', strictPorts: true, strictValues: true };

function checkImage(image: ImageShape, at: string, problems: Problems): DeployImage {
  const name = image.name?.trim() ?? '';
  if (!name) problems.add(`${at}.name`, 'is required');
  const scope = { ...DESCRIPTOR_RULES, own: name || undefined };
  checkPorts(image.ports, at, problems, scope);
  checkLinks(image.links, at, problems, scope);
  checkVolumes(image.volumes, at, problems, scope);
  checkVolumesFrom(image.volumes_from, at, problems, scope);
  checkEnvironment(image.environment, at, problems, scope);
  checkTextParts(image, at, problems, scope);
  const ports = image.ports?.map((port): Port =>
    dropUndefined({
      host_interface: port.host_interface || undefined,
      host_port: isBlank(port.host_port) ? undefined : Number(port.host_port),
      container_port: Number(port.container_port ?? 0),
      proto: port.proto?.toUpperCase() as Port['proto'],
    }),
  );
  let deployment: DeployImage['deployment'];
  if (image.deployment) {
    const count = Number(image.deployment.count ?? 1);
    if (!Number.isInteger(count) || count < 1 || count > MAX_COUNT || image.deployment.count === '') {
      problems.add(`${at}.deployment.count`, `must be an integer from 1 to ${MAX_COUNT}`);
    }
    deployment = { count };
  }
  return dropUndefined({
    ...image,
    name,
    ports,
    links: image.links as Link[] | undefined,
    volumes: image.volumes as Volume[] | undefined,
    volumes_from: image.volumes_from as VolumeFrom[] | undefined,
    environment: image.environment as EnvironmentVariable[] | undefined,
    deployment,
  });
}

function checkTemplateId(value: string | number | undefined, problems: Problems): number | undefined {
  if (value === undefined || value === '') return undefined;
  const id = Number(value);
  if (!Number.isSafeInteger(id) || id < 0) problems.add('template.id', 'must be a non-negative integer');
  return id;
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
