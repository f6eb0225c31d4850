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

/** The caller resolves links, volumes_from and the category, and sanitises the name. */
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

export interface ServiceRefs {
  name: string;
  category: string | null;
  links: LinkDef[];
  volumes_from: VolumesFromDef[];
  deployment?: DeploymentDef | null;
}

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
