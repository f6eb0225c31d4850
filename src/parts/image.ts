/**
 * The parts of a container, and of an image of a template that becomes one: the one definition
 * of its fields (IMAGE_KEYS, TEXT_PARTS), and the forms they take: the definition (snake_case, as
 * in .pmx files and interface B), stored (camelCase columns), viewed (what GraphQL's types read),
 * given (GraphQL's camelCase input) and the file form. Templates, apps, deployments and the agent
 * all read these.
 */

/** What is known of a text part of a container. */
export interface TextPart {
  /** Longest value a client may give (README "Limits"). */
  maxChars: number;
  /** An app's service keeps it too (else a template image alone has it). */
  onService: boolean;
  /** Why a value cannot be used (a 422 naming the field), or null. */
  problem?: (value: string) => string | null;
  /** The value kept for what a client gave (default: as given). */
  normalize?: (value: string) => string | null;
  description: string;
}

/**
 * The parts of a container that are one text each: a nullable string under its file name, a
 * column of its own, a GraphQL field and input field under its camelCase name, and a member of
 * interface A's shapes. Adding one here adds it to all of those; what it does to a container is
 * said where containers are made.
 */
export const TEXT_PARTS = {
  // Not part of the file form: the original never emitted it.
  description: { maxChars: 64 * 1024, onService: true, description: 'What the image is for' },
  category: { maxChars: 255, onService: false, description: 'The category its service is placed in' },
  type: { maxChars: 255, onService: true, description: "The image's kind, a free label" },
  command: {
    maxChars: 16 * 1024,
    onService: true,
    description: "The command it runs, split as a shell would; null: the image's",
    normalize: (value: string) => (value.trim() ? value : null),
  },
  restart_policy: {
    maxChars: 64,
    onService: true,
    description:
      "When its containers restart: no, always, unless-stopped, on-failure[:N]; null: the engine's default (a deployment's: unless-stopped)",
    problem: (value: string) => restartPolicyProblem(value),
    normalize: (value: string) => value.trim() || null,
  },
} as const satisfies Record<string, TextPart>;

export type TextPartKey = keyof typeof TEXT_PARTS;
export const TEXT_PART_KEYS = Object.keys(TEXT_PARTS) as TextPartKey[];
/** The text parts an app's service keeps. */
export type ServiceTextPartKey = { [K in TextPartKey]: (typeof TEXT_PARTS)[K]['onService'] extends true ? K : never }[TextPartKey];
export const SERVICE_TEXT_PART_KEYS = TEXT_PART_KEYS.filter((key): key is ServiceTextPartKey => TEXT_PARTS[key].onService);

export type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

export const camel = <S extends string>(key: S): Camel<S> => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as Camel<S>;

/** Why a restart policy cannot be used, or null: no, always, unless-stopped, on-failure[:N]. */
export function restartPolicyProblem(value: string): string | null {
  return /^(no|always|unless-stopped|on-failure(:[1-9]\d{0,5})?)$/.test(value.trim())
    ? null
    : `"${value}" is not a restart policy (no, always, unless-stopped, on-failure[:N])`;
}

/** A text part's value as it is kept: normalised by its entry, or as given. */
export function normalizeText(key: TextPartKey, value: string): string | null {
  const part: TextPart = TEXT_PARTS[key];
  return part.normalize ? part.normalize(value) : value;
}

/** The text parts under their file names, as a definition holds them. */
export type TextParts = { [K in TextPartKey]: string | null };
/** The same under their camelCase names, as an entity, a view and an input hold them. */
export type CamelTextParts = { [K in TextPartKey as Camel<K>]: string | null };

export type ImageDefinition = {
  name: string;
  /** Docker image with an optional tag. */
  source: string;
  /** Container ports, as decimal strings (a protocol other than TCP after a slash). */
  expose: string[];
  ports: PortDef[];
  links: LinkDef[];
  environment: EnvDef[];
  volumes: VolumeDef[];
  volumes_from: VolumesFromDef[];
  deployment: DeploymentDef | null;
} & TextParts;

/** Port values are kept as given (number or string); `proto` is upper-cased when given. */
export interface PortDef {
  host_interface?: string | null;
  host_port?: number | string | null;
  container_port: number | string;
  proto?: string | null;
}

/** `service` names another image of the same template. */
export interface LinkDef {
  service: string;
  alias: string;
}

export interface EnvDef {
  variable: string;
  value: string;
  /** Informational only: the value must be filled in before running. */
  required?: boolean;
}

export interface VolumeDef {
  host_path?: string | null;
  container_path: string;
}

export interface VolumesFromDef {
  service: string;
}

export interface DeploymentDef {
  count?: number;
}

/**
 * Every field of an image by its definition (file) name, in the order of the file form; stored
 * and viewed in camelCase.
 */
export const IMAGE_KEYS = [
  'name',
  'source',
  'description',
  'category',
  'type',
  'expose',
  'ports',
  'links',
  'environment',
  'volumes',
  'volumes_from',
  'command',
  'restart_policy',
  'deployment',
] as const satisfies readonly (keyof ImageDefinition)[];
// A field of ImageDefinition missing from IMAGE_KEYS makes this `false` and fails the build.
const imageKeysComplete: Exclude<keyof ImageDefinition, (typeof IMAGE_KEYS)[number]> extends never ? true : false = true;
void imageKeysComplete;

/** An image as the entity stores it: the definition's fields under their camelCase names. */
export type StoredImage = { [K in keyof ImageDefinition as Camel<K>]: ImageDefinition[K] };

/** What an image without a value has: lists are empty, the rest null (name and source blank). A fresh one each time. */
const emptyImage = (): ImageDefinition => ({
  name: '',
  source: '',
  ...emptyTextParts(),
  expose: [],
  ports: [],
  links: [],
  environment: [],
  volumes: [],
  volumes_from: [],
  deployment: null,
});

/** Every text part, null. */
export function emptyTextParts(): TextParts {
  return Object.fromEntries(TEXT_PART_KEYS.map((key) => [key, null])) as TextParts;
}

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
  const view = {
    id,
    name: image.name ?? '',
    source: image.source ?? '',
    expose: image.expose ?? [],
    ports: image.ports?.map(portView) ?? [],
    links: image.links ?? [],
    environment: image.environment?.map(envView) ?? [],
    volumes: image.volumes?.map(volumeView) ?? [],
    volumesFrom: image.volumes_from ?? [],
    deployment: image.deployment ?? null,
  } as ImageView;
  for (const [key, name] of TEXT_FIELDS) (view as Record<string, unknown>)[name] = image[key] ?? null;
  return view;
}

/** The text parts with their camelCase names, computed once. */
export const TEXT_FIELDS = TEXT_PART_KEYS.map((key) => [key, camel(key)] as const);

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

/** Per-image overrides for a deployment: matched to template images by name on the agent. */
export type OverrideImage = Partial<Omit<ImageDefinition, 'name'>> & { name: string };

/**
 * An image in the template-file form (docs/original-system.md "Serialized forms"): keys in a fixed order, nil and empty values dropped,
 * the members of parts in their own fixed order.
 */
export function imageFileForm(image: ImageDefinition): Record<string, unknown> {
  const form: Record<string, unknown> = {};
  for (const key of IMAGE_KEYS) {
    const value = key in FILE_FORMS ? FILE_FORMS[key as keyof typeof FILE_FORMS](image) : image[key];
    if (!isEmpty(value)) form[key] = value;
  }
  return form;
}

/** The file form of the parts that are not text: their members in a fixed order, nulls dropped. */
const FILE_FORMS = {
  ports: (image: ImageDefinition) =>
    image.ports?.map((p) =>
      compact({ host_interface: p.host_interface, host_port: p.host_port, container_port: p.container_port, proto: p.proto }),
    ),
  links: (image: ImageDefinition) => image.links?.map((l) => ({ service: l.service, alias: l.alias })),
  environment: (image: ImageDefinition) =>
    image.environment?.map((e) => compact({ variable: e.variable, value: e.value, required: e.required })),
  volumes: (image: ImageDefinition) => image.volumes?.map((v) => compact({ host_path: v.host_path, container_path: v.container_path })),
  volumes_from: (image: ImageDefinition) => image.volumes_from?.map((v) => ({ service: v.service })),
  deployment: (image: ImageDefinition) => (image.deployment ? compact({ count: image.deployment.count }) : null),
} satisfies Partial<Record<(typeof IMAGE_KEYS)[number], (image: ImageDefinition) => unknown>>;

function isEmpty(value: unknown): boolean {
  if (value === null || value === undefined || value === '') return true;
  if (Array.isArray(value)) return value.length === 0;
  return typeof value === 'object' && Object.keys(value).length === 0;
}

/** Drops null and undefined members: the agent reads absence, not null, as "not given". */
export function compact<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== null && v !== undefined)) as Partial<T>;
}
