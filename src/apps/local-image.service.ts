import type { DockerClient } from '../engines/docker-client';
import { NotFoundError, ValidationError } from '../errors';

export interface LocalImage {
  /** Without its `sha256:` prefix. */
  id: string;
  tags: string[];
  virtualSize: number;
}

const IMAGE_ID = /^(sha256:)?[0-9a-f]{12,64}$/;

export class LocalImageService {
  constructor(private readonly docker: DockerClient) {}

  /** Tagged images only: an untagged layer is not something a user pulled or can run by name. */
  async list(): Promise<LocalImage[]> {
    const images = await this.docker.listAllImages();
    return images
      .map((image) => ({
        id: image.Id.replace(/^sha256:/, ''),
        tags: (image.RepoTags ?? []).filter((tag) => tag !== '<none>:<none>'),
        virtualSize: image.VirtualSize ?? image.Size,
      }))
      .filter((image) => image.tags.length > 0)
      .sort((a, b) => a.tags[0].localeCompare(b.tags[0]));
  }

  async get(id: string): Promise<LocalImage> {
    const wanted = checkedId(id);
    const image = (await this.list()).find((candidate) => candidate.id.startsWith(wanted));
    if (!image) throw NotFoundError.of('local image', id);
    return image;
  }

  /** Refused by the engine (409) while a container uses it. */
  async delete(id: string): Promise<LocalImage> {
    const image = await this.get(id);
    await this.docker.removeImage(`sha256:${image.id}`);
    return image;
  }
}

function checkedId(id: string): string {
  if (!IMAGE_ID.test(id)) throw new ValidationError('id must be an image id (hex)', ['id']);
  return id.replace(/^sha256:/, '');
}
