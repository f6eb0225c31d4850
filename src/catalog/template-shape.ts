import type { Service } from '../apps/app.entity';
import type {
  DeploymentDef,
  EnvDef,
  ImageDefinition,
  LinkDef,
  PortDef,
  TemplateDefinition,
  VolumeDef,
  VolumesFromDef,
} from './template-definition';
import type { Template, TemplateImage } from './template.entity';
import { DEFAULT_TYPE } from './template-types';

/**
 * The one mapping of a template and its images (the container parts: ports, environment,
 * volumes, links, volumes_from) between the forms they take:
 *
 *   definition (snake_case, as in .pmx files; template-definition.ts)
 *     ⇄ stored rows (template.entity.ts: the same names in camelCase; raw rows in snake_case)
 *     → view (what GraphQL's Template and Image types read; REST aliases it back to snake_case)
 *     → interface B's DeploymentDescriptor (what an agent is sent)
 *     ⇄ an app's services (app.entity.ts)
 *
 * An image field is named once, in IMAGE_KEYS: adding one touches the definition, the entity
 * and its migration, IMAGE_KEYS (tsc fails until it is listed), the schema's Image type and a test.
 */

/** Every field of an image, by its definition (file) name; stored and viewed in camelCase. */
export const IMAGE_KEYS = [
  'name',
  'source',
  'description',
  'category',
  'type',
  'command',
  'expose',
  'ports',
  'links',
  'environment',
  'volumes',
  'volumes_from',
  'deployment',
] as const satisfies readonly (keyof ImageDefinition)[];
// A field of ImageDefinition missing from IMAGE_KEYS makes this `false` and fails the build.
const imageKeysComplete: Exclude<keyof ImageDefinition, (typeof IMAGE_KEYS)[number]> extends never ? true : false = true;
void imageKeysComplete;

type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

/** An image as the entity stores it: the definition's fields under their camelCase names. */
export type StoredImage = { [K in keyof ImageDefinition as Camel<K>]: ImageDefinition[K] };

/** What an image without a value has: lists are empty, the rest null (name and source blank). A fresh one each time. */
const emptyImage = (): ImageDefinition => ({
  name: '',
  source: '',
  description: null,
  category: null,
  type: null,
  command: null,
  expose: [],
  ports: [],
  links: [],
  environment: [],
  volumes: [],
  volumes_from: [],
  deployment: null,
});

const camel = (key: string): string => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * Each image key with its stored (camelCase) name, computed once: the mappings below run for
 * every image of every template a list answers (the regex per key per image was a tenth of
 * GET /templates' CPU, bench scenario 1).
 */
const IMAGE_FIELDS = IMAGE_KEYS.map((key) => [key, camel(key)] as const);
const EMPTY_IMAGE: Readonly<ImageDefinition> = Object.freeze(emptyImage());
/** The empty value of a key: a fresh list for a list (callers may push to it), else null or ''. */
const emptyValue = (key: keyof ImageDefinition): unknown => {
  const value = EMPTY_IMAGE[key];
  return Array.isArray(value) ? [] : value;
};

/** An image with only a name and a source (one image run as it is, a registry search hit). */
export function bareImage(name: string, source: string, description: string | null = null): ImageDefinition {
  return { ...emptyImage(), name, source, description };
}

/** A template with only a name and its images (an app made from one image or a compose file). */
export function bareTemplate(name: string, images: ImageDefinition[]): TemplateDefinition {
  return { name, description: null, keywords: null, type: DEFAULT_TYPE, documentation: null, authors: [], source: null, images };
}

// ---- definition ⇄ stored -------------------------------------------------------------------

/** The entity's fields for an image (TemplateImage, less its template and position). */
export function storedImage(image: ImageDefinition): StoredImage {
  const stored: Record<string, unknown> = {};
  for (const [key, name] of IMAGE_FIELDS) stored[name] = image[key] ?? emptyValue(key);
  return stored as StoredImage;
}

/** A stored image as a definition: from the entity (camelCase) or a raw row (snake_case columns). */
export function imageFromStored(image: Partial<StoredImage> | Partial<ImageDefinition>): ImageDefinition {
  const values = image as Record<string, unknown>;
  const definition: Record<string, unknown> = {};
  for (const [key, name] of IMAGE_FIELDS) definition[key] = values[name] ?? values[key] ?? emptyValue(key);
  return definition as unknown as ImageDefinition;
}

/** The entity's fields for a template (Template, less its repo, path and images). */
export function storedTemplate(def: TemplateDefinition) {
  return {
    name: def.name,
    description: def.description,
    keywords: def.keywords,
    type: def.type,
    documentation: def.documentation,
    authors: def.authors,
    source: def.source,
    imageCount: def.images.length,
    imageText: imageSearchText(def.images),
  };
}

/** A stored template (with its images populated) as a definition. */
export function templateFromStored(template: Template): TemplateDefinition {
  return {
    name: template.name,
    description: template.description ?? null,
    keywords: template.keywords ?? null,
    type: template.type,
    documentation: template.documentation ?? null,
    authors: template.authors,
    source: template.source ?? null,
    images: template.images.getItems().map((image: TemplateImage) => imageFromStored(image)),
  };
}

/**
 * Image names and sources as searchable words: each as given, and again with / : . _ - as word
 * breaks, so `tutum/mysql:5.5` is found by "mysql" (migration 0010 fills older rows the same way).
 */
export function imageSearchText(images: readonly Pick<ImageDefinition, 'name' | 'source'>[]): string {
  return images.map((i) => `${i.name} ${i.source} ${`${i.name} ${i.source}`.replace(/[/:._-]+/g, ' ')}`).join(' ');
}

// ---- view -----------------------------------------------------------------------------------

/**
 * What GraphQL's template types read: a stored template, or a single-image template made from a
 * registry search hit (which has no id and no dates).
 */
export interface TemplateView {
  id: number | null;
  name: string;
  description: string | null;
  keywords: string | null;
  source: string | null;
  type: string;
  imageCount: number;
  createdAt: Date | null;
  updatedAt: Date | null;
  documentation: string | null;
  images: ImageView[];
  /** The repo a stored template was loaded from, when read per repo. */
  repoId?: number | null;
  registryId?: number;
  registryName?: string;
  tags?: string[];
  starCount?: number | null;
  isOfficial?: boolean | null;
  isTrusted?: boolean | null;
}

/**
 * What GraphQL's Image type reads. Every property is named as its GraphQL field, so the schema
 * exposes them without resolvers: graphql-jit (REST) reads an exposed field inline, while a
 * resolver costs a call with its own info object and closures; ~20 resolvers per image were
 * most of GET /templates' allocations (bench/RESULTS.md, scenario 1).
 */
export type ImageView = Omit<StoredImage, 'ports' | 'environment' | 'volumes'> & {
  id: number | null;
  ports: PortView[];
  environment: EnvView[];
  volumes: VolumeView[];
};

/** The GraphQL shapes of the spec's snake_case ports, environment and volumes (schema/container-parts.ts). */
export interface PortView {
  hostInterface: string | null;
  hostPort: number | string | null;
  containerPort: number | string;
  proto: string | null;
}

export interface EnvView {
  variable: string;
  value: string;
  required: boolean | null;
}

export interface VolumeView {
  hostPath: string | null;
  containerPath: string;
}

export const portView = (p: PortDef): PortView => ({
  hostInterface: p.host_interface ?? null,
  hostPort: p.host_port ?? null,
  containerPort: p.container_port,
  proto: p.proto ?? null,
});

export const envView = (e: EnvDef): EnvView => ({ variable: e.variable, value: e.value ?? '', required: e.required ?? null });

export const volumeView = (v: VolumeDef): VolumeView => ({ hostPath: v.host_path ?? null, containerPath: v.container_path });

/**
 * An image (a definition, or a row of IMAGE_COLUMNS, whose columns are the definition's names)
 * as GraphQL reads it. One object literal: a list answers it for every image of every template,
 * and built key by key (or spread from one) it cost a tenth of GET /templates' CPU. A field added
 * to the image type fails to compile here until it is listed.
 */
export function imageView(image: Partial<ImageDefinition>, id: number | null): ImageView {
  return {
    id,
    name: image.name ?? '',
    source: image.source ?? '',
    description: image.description ?? null,
    category: image.category ?? null,
    type: image.type ?? null,
    command: image.command ?? null,
    expose: image.expose ?? [],
    ports: image.ports?.map(portView) ?? [],
    links: image.links ?? [],
    environment: image.environment?.map(envView) ?? [],
    volumes: image.volumes?.map(volumeView) ?? [],
    volumesFrom: image.volumes_from ?? [],
    deployment: image.deployment ?? null,
  };
}

/** The template columns templateRowView reads. */
export const TEMPLATE_COLUMNS = 'id, name, description, keywords, source, type, image_count, created_at, updated_at, documentation';
export const IMAGE_COLUMNS = `id, template_id, ${IMAGE_KEYS.join(', ')}`;

export interface TemplateRow {
  id: number;
  name: string;
  description: string | null;
  keywords: string | null;
  source: string | null;
  type: string;
  image_count: number;
  created_at: string | Date;
  updated_at: string | Date;
  documentation: string | null;
}

export type ImageRow = Partial<ImageDefinition> & { id: number; template_id: number };

/** A stored template as GraphQL reads it (its images populated). */
export function templateView(template: Template): TemplateView {
  return {
    id: template.id,
    name: template.name,
    description: template.description ?? null,
    keywords: template.keywords ?? null,
    source: template.source ?? null,
    type: template.type,
    imageCount: template.imageCount,
    createdAt: template.createdAt,
    updatedAt: template.updatedAt,
    documentation: template.documentation ?? null,
    images: template.images.getItems().map((image) => imageView(imageFromStored(image), image.id)),
  };
}

/** A template row (TEMPLATE_COLUMNS) and its image rows (IMAGE_COLUMNS) as GraphQL reads them. */
export function templateRowView(row: TemplateRow, images: readonly ImageRow[]): TemplateView {
  return {
    id: row.id,
    name: row.name,
    description: row.description,
    keywords: row.keywords,
    source: row.source,
    type: row.type,
    imageCount: row.image_count,
    createdAt: new Date(row.created_at),
    updatedAt: new Date(row.updated_at),
    documentation: row.documentation,
    images: images.map((image) => imageView(image, image.id)),
  };
}

/** A template of one image that is not stored (no id, no dates): a registry search hit. */
export function singleImageView(name: string, description: string | null, source: string | null, image: ImageDefinition): TemplateView {
  return {
    id: null,
    name,
    description,
    keywords: null,
    source,
    type: 'Default',
    imageCount: 1,
    createdAt: null,
    updatedAt: null,
    documentation: null,
    images: [imageView(image, null)],
  };
}

// ---- input (GraphQL's camelCase parts) → definition ------------------------------------------

export interface PortInput {
  hostInterface?: string | null;
  hostPort?: number | string | null;
  containerPort?: number | string | null;
  proto?: string | null;
}
export interface EnvInput {
  variable: string;
  value?: string | null;
  required?: boolean | null;
}
export interface VolumeInput {
  hostPath?: string | null;
  containerPath?: string | null;
}

export const portFromInput = (p: PortInput): PortDef => ({
  host_interface: p.hostInterface ?? null,
  host_port: p.hostPort ?? null,
  container_port: p.containerPort ?? '',
  proto: p.proto ? p.proto.toUpperCase() : null,
});

export const envFromInput = (e: EnvInput): EnvDef => ({
  variable: e.variable,
  value: e.value ?? '',
  ...(e.required != null ? { required: e.required } : {}),
});

export const volumeFromInput = (v: VolumeInput): VolumeDef => ({ host_path: v.hostPath ?? null, container_path: v.containerPath ?? '' });

// ---- definition → interface B ----------------------------------------------------------------

/** Per-image overrides for a deployment: matched to template images by name on the agent. */
export type OverrideImage = Partial<Omit<ImageDefinition, 'name'>> & { name: string };

/** Interface B's DeploymentDescriptor: the template in its file form, plus the overrides. */
export function deploymentDescriptor(templateId: number | null, def: TemplateDefinition, overrides: OverrideImage[]) {
  return {
    template: {
      // None for an app's definition: the agent then lists the deployment with no template.
      id: templateId ?? undefined,
      name: def.name,
      description: def.description ?? undefined,
      keywords: def.keywords ?? undefined,
      source: def.source ?? undefined,
      type: def.type,
      image_count: def.images.length,
      documentation: def.documentation ?? undefined,
      images: def.images.map((image) => compact(image)),
    },
    override: { images: overrides.map((image) => compact(image)) },
  };
}

/** Drops null and undefined members: the agent reads absence, not null, as "not given". */
function compact<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}

// ---- definition ⇄ an app's services ------------------------------------------------------------

/**
 * An image's fields as its service stores them; links, volumes_from and the category are
 * relations the caller resolves, and the name is sanitised by the caller.
 */
export function serviceFields(image: ImageDefinition) {
  return {
    imageName: image.name.trim(),
    description: image.description,
    from: image.source.trim(),
    type: image.type,
    command: image.command,
    ports: image.ports,
    expose: image.expose.map(String),
    environment: image.environment,
    volumes: image.volumes,
  };
}

/** The names a service's relations resolve to, for its image. */
export interface ServiceRefs {
  name: string;
  category: string | null;
  links: LinkDef[];
  volumes_from: VolumesFromDef[];
  deployment?: DeploymentDef | null;
}

/** A service as the image of a template made from its app. */
export function serviceImage(
  service: Pick<Service, 'from' | 'description' | 'type' | 'command' | 'ports' | 'expose' | 'environment' | 'volumes'>,
  refs: ServiceRefs,
): ImageDefinition {
  return imageFromStored({
    ...refs,
    source: service.from,
    description: service.description,
    type: service.type,
    command: service.command,
    ports: service.ports,
    expose: service.expose,
    environment: service.environment,
    volumes: service.volumes,
  });
}

// ---- the file form -----------------------------------------------------------------------------

/**
 * An image in the template-file form (docs/original-system.md "Serialized forms"): keys in a fixed order, nil and empty values dropped,
 * the members of parts in their own fixed order.
 */
export function imageFileForm(image: ImageDefinition): Record<string, unknown> {
  const entries: [string, unknown][] = [
    ['name', image.name],
    ['source', image.source],
    ['description', image.description],
    ['category', image.category],
    ['type', image.type],
    ['expose', image.expose],
    [
      'ports',
      image.ports?.map((p) =>
        compact({ host_interface: p.host_interface, host_port: p.host_port, container_port: p.container_port, proto: p.proto }),
      ),
    ],
    ['links', image.links?.map((l) => ({ service: l.service, alias: l.alias }))],
    ['environment', image.environment?.map((e) => compact({ variable: e.variable, value: e.value, required: e.required }))],
    ['volumes', image.volumes?.map((v) => compact({ host_path: v.host_path, container_path: v.container_path }))],
    ['volumes_from', image.volumes_from?.map((v) => ({ service: v.service }))],
    ['command', image.command],
    ['deployment', image.deployment ? compact({ count: image.deployment.count }) : null],
  ];
  return Object.fromEntries(entries.filter(([, value]) => !isEmpty(value)));
}

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}
