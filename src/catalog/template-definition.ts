/**
 * A template as the domain sees it: what a `.pmx` file holds once parsed and normalised
 * (docs/original-system.md "Template file format"). Storage and GraphQL shapes are built from this.
 */
export interface TemplateDefinition {
  name: string;
  description: string | null;
  /** One comma-separated string, as in the original (`wordpress, mysql`). */
  keywords: string | null;
  /** A /types name (see template-types.ts), normalised: never blank. */
  type: string;
  documentation: string | null;
  /** Stored, never serialized. */
  authors: string[];
  /** The template repo the template was loaded from; not part of the file form. */
  source: string | null;
  images: ImageDefinition[];
}

export interface ImageDefinition {
  name: string;
  /** Docker image with an optional tag. */
  source: string;
  /** Not part of the file form (the original never emitted it). */
  description: string | null;
  category: string | null;
  type: string | null;
  command: string | null;
  /** Container ports, as decimal strings. */
  expose: string[];
  ports: PortDef[];
  links: LinkDef[];
  environment: EnvDef[];
  volumes: VolumeDef[];
  volumes_from: VolumesFromDef[];
  deployment: DeploymentDef | null;
}

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
