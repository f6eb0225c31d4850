import type { DeploymentDef, ImageDefinition, LinkDef, VolumesFromDef } from '../parts/image';
import { imageFromStored } from '../parts/image';
import type { Service } from './app.entity';

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
