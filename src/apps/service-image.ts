import {
  camel,
  imageFromStored,
  SERVICE_TEXT_PART_KEYS,
  type Camel,
  type CamelTextParts,
  type DeploymentDef,
  type ImageDefinition,
  type LinkDef,
  type ServiceTextPartKey,
  type VolumesFromDef,
} from '../parts/image';
import type { Service } from './app.entity';

type ServiceTextParts = Pick<CamelTextParts, Camel<ServiceTextPartKey>>;

/**
 * An image's fields as its service stores them; links, volumes_from and the category are
 * relations the caller resolves, and the name is sanitised by the caller.
 */
export function serviceFields(image: ImageDefinition) {
  return {
    imageName: image.name.trim(),
    from: image.source.trim(),
    ...serviceTextParts(image),
    ports: image.ports,
    expose: image.expose.map(String),
    environment: image.environment,
    volumes: image.volumes,
  };
}

function serviceTextParts(image: ImageDefinition): ServiceTextParts {
  return Object.fromEntries(SERVICE_TEXT_PART_KEYS.map((key) => [camel(key), image[key]])) as ServiceTextParts;
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
  service: Pick<Service, 'from' | 'ports' | 'expose' | 'environment' | 'volumes'> & Partial<ServiceTextParts>,
  refs: ServiceRefs,
): ImageDefinition {
  return imageFromStored({
    ...refs,
    ...Object.fromEntries(SERVICE_TEXT_PART_KEYS.map((key) => [key, service[camel(key)] ?? null])),
    source: service.from,
    ports: service.ports,
    expose: service.expose,
    environment: service.environment,
    volumes: service.volumes,
  });
}
