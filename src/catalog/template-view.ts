import type { DeploymentDef, EnvDef, ImageDefinition, LinkDef, PortDef, VolumeDef, VolumesFromDef } from './template-definition';
import type { Template, TemplateImage } from './template.entity';

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
export interface ImageView {
  id: number | null;
  name: string;
  source: string;
  description: string | null;
  category: string | null;
  type: string | null;
  command: string | null;
  expose: string[];
  ports: PortView[];
  links: LinkDef[];
  environment: EnvView[];
  volumes: VolumeView[];
  volumesFrom: VolumesFromDef[];
  deployment: DeploymentDef | null;
}

/** The GraphQL shapes of the spec's snake_case ports, environment and volumes (container-parts). */
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

/** An image definition (snake_case, as stored and as in .pmx files) as GraphQL reads it. */
export function imageDefinitionView(image: ImageDefinition, id: number | null): ImageView {
  return {
    id,
    name: image.name,
    source: image.source,
    description: image.description ?? null,
    category: image.category ?? null,
    type: image.type ?? null,
    command: image.command ?? null,
    expose: image.expose,
    ports: image.ports.map(portView),
    links: image.links,
    environment: image.environment.map(envView),
    volumes: image.volumes.map(volumeView),
    volumesFrom: image.volumes_from,
    deployment: image.deployment ?? null,
  };
}

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
    images: template.images.getItems().map(imageView),
  };
}

export function imageView(image: TemplateImage): ImageView {
  return imageDefinitionView(imageDefinition(image), image.id);
}

/** The domain form of a stored image: what the file serializer and the agent take. */
export function imageDefinition(image: TemplateImage): ImageDefinition {
  return {
    name: image.name,
    source: image.source,
    description: image.description ?? null,
    category: image.category ?? null,
    type: image.type ?? null,
    command: image.command ?? null,
    expose: image.expose,
    ports: image.ports,
    links: image.links,
    environment: image.environment,
    volumes: image.volumes,
    volumes_from: image.volumesFrom,
    deployment: image.deployment ?? null,
  };
}
