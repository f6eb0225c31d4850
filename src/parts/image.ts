// The one definition of a container's fields and their forms: definition (snake_case, as in .pmx
// files and interface B), stored (camelCase columns), viewed and given (GraphQL), and the file form.

export interface TextPart {
  maxChars: number;
  /** An app's service keeps it too, not only a template image. */
  onService: boolean;
  /** Why a value cannot be used (a 422 naming the field), or null. */
  problem?: (value: string) => string | null;
  normalize?: (value: string) => string | null;
  description: string;
}

/** Adding one here adds a column, a GraphQL field and input field, and a member of interface A's shapes. */
export const TEXT_PARTS = {
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
export type ServiceTextPartKey = { [K in TextPartKey]: (typeof TEXT_PARTS)[K]['onService'] extends true ? K : never }[TextPartKey];
export const SERVICE_TEXT_PART_KEYS = TEXT_PART_KEYS.filter((key): key is ServiceTextPartKey => TEXT_PARTS[key].onService);

export type Camel<S extends string> = S extends `${infer Head}_${infer Tail}` ? `${Head}${Capitalize<Camel<Tail>>}` : S;

export const camel = <S extends string>(key: S): Camel<S> => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()) as Camel<S>;

export function restartPolicyProblem(value: string): string | null {
  return /^(no|always|unless-stopped|on-failure(:[1-9]\d{0,5})?)$/.test(value.trim())
    ? null
    : `"${value}" is not a restart policy (no, always, unless-stopped, on-failure[:N])`;
}

export function normalizeText(key: TextPartKey, value: string): string | null {
  const part: TextPart = TEXT_PARTS[key];
  return part.normalize ? part.normalize(value) : value;
}

export type TextParts = { [K in TextPartKey]: string | null };
export type CamelTextParts = { [K in TextPartKey as Camel<K>]: string | null };

export type ImageDefinition = {
  name: string;
  /** Docker image with an optional tag. */
  source: string;
  /** Decimal strings, a protocol other than TCP after a slash. */
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

/** In the order of the file form. */
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

export type StoredImage = { [K in keyof ImageDefinition as Camel<K>]: ImageDefinition[K] };

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

export function emptyTextParts(): TextParts {
  return Object.fromEntries(TEXT_PART_KEYS.map((key) => [key, null])) as TextParts;
}

// Computed once: the mappings below run for every image of every template a list answers.
const IMAGE_FIELDS = IMAGE_KEYS.map((key) => [key, camel(key)] as const);
const EMPTY_IMAGE: Readonly<ImageDefinition> = Object.freeze(emptyImage());
// A fresh list each time: callers may push to it.
const emptyValue = (key: keyof ImageDefinition): unknown => {
  const value = EMPTY_IMAGE[key];
  return Array.isArray(value) ? [] : value;
};

export function bareImage(name: string, source: string, description: string | null = null): ImageDefinition {
  return { ...emptyImage(), name, source, description };
}

export function storedImage(image: ImageDefinition): StoredImage {
  const stored: Record<string, unknown> = {};
  for (const [key, name] of IMAGE_FIELDS) stored[name] = image[key] ?? emptyValue(key);
  return stored as StoredImage;
}

/** From the entity (camelCase) or a raw row (snake_case columns). */
export function imageFromStored(image: Partial<StoredImage> | Partial<ImageDefinition>): ImageDefinition {
  const values = image as Record<string, unknown>;
  const definition: Record<string, unknown> = {};
  for (const [key, name] of IMAGE_FIELDS) definition[key] = values[name] ?? values[key] ?? emptyValue(key);
  return definition as unknown as ImageDefinition;
}

/** Named as GraphQL's fields so the schema exposes them without resolvers, which graphql-jit inlines. */
export type ImageView = Omit<StoredImage, 'ports' | 'environment' | 'volumes'> & {
  id: number | null;
  ports: PortView[];
  environment: EnvView[];
  volumes: VolumeView[];
};

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

/** One object literal, not built key by key: lists build it for every image of every template. */
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

/** Keys in a fixed order, nil and empty values dropped (docs/original-system.md "Serialized forms"). */
export function imageFileForm(image: ImageDefinition): Record<string, unknown> {
  const form: Record<string, unknown> = {};
  for (const key of IMAGE_KEYS) {
    const value = key in FILE_FORMS ? FILE_FORMS[key as keyof typeof FILE_FORMS](image) : image[key];
    if (!isEmpty(value)) form[key] = value;
  }
  return form;
}

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
