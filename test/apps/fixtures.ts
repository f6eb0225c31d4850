import { randomBytes } from 'node:crypto';
import { createConnection, createServer, type Server } from 'node:net';
import { rm } from 'node:fs/promises';
import type { TemplateDefinition } from '../../src/catalog/template-definition';
import type { ImageDefinition } from '../../src/parts/image';
import { TemplateService } from '../../src/catalog/template.service';
import { bareImage } from '../../src/parts/image';
import type { DockerClient } from '../../src/engines/docker-client';
import { removeByLabel, TEST_IMAGE, testDockerClient } from '../helpers/docker';
import type { TestApp } from '../helpers/app';

export const suffix = () => randomBytes(3).toString('hex');

/** An image of a template, every list empty unless given. */
export function image(fields: Partial<ImageDefinition> & { name: string }): ImageDefinition {
  return { ...bareImage(fields.name, TEST_IMAGE), ...fields };
}

/** Stores a template straight through the catalog's service; returns its id. */
export async function seedTemplate(
  t: TestApp,
  fields: Partial<TemplateDefinition> & { name: string; images: ImageDefinition[] },
): Promise<number> {
  const em = t.app.orm.em.fork();
  const template = new TemplateService(em).build(
    {
      description: null,
      keywords: null,
      type: 'Default',
      documentation: null,
      authors: [],
      source: null,
      ...fields,
    },
    null,
  );
  await em.flush();
  return template.id;
}

/** The installation id our containers and networks are labelled with. */
export async function instanceId(t: TestApp): Promise<string> {
  const rows: { id: string }[] = await t.app.orm.em.getConnection().execute('select id from platform_instance');
  return rows[0].id;
}

/** The ids of the images the instance built (compose `build:`), labelled so at build time. */
export async function builtImages(docker: DockerClient, instance: string): Promise<string[]> {
  const images = await docker.request<{ Id: string }[]>('GET', '/images/json', {
    query: { filters: { label: [`platform.instance=${instance}`] } },
  });
  return images.map((i) => i.Id);
}

/** Removes everything the instance made on the engine: containers, networks, volumes, then built images. */
export async function cleanupEngine(instance: string): Promise<void> {
  await removeByLabel(`platform.instance=${instance}`);
  const docker = testDockerClient();
  try {
    for (const image of await builtImages(docker, instance)) await docker.removeImage(image, { force: true }).catch(() => undefined);
  } finally {
    await docker.close();
  }
}

/** Polls `read` until `done` holds (or fails with the last value after `timeoutMs`). */
export async function waitFor<T>(read: () => Promise<T>, done: (value: T) => boolean, timeoutMs = 20_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  let last = await read();
  while (!done(last)) {
    if (Date.now() > deadline) throw new Error(`gave up waiting; last value: ${JSON.stringify(last).slice(0, 2000)}`);
    await new Promise((r) => setTimeout(r, 150));
    last = await read();
  }
  return last;
}

/**
 * A unix-socket proxy in front of the engine's socket that counts the HTTP requests going
 * through, and can be stopped (the engine looks unreachable: nothing listens on the path) and
 * started again at the same path.
 */
export class EngineProxy {
  readonly path = `/tmp/platform-engine-proxy-${randomBytes(4).toString('hex')}.sock`;
  readonly requests: string[] = [];
  private server: Server | undefined;
  private readonly sockets = new Set<import('node:net').Socket>();

  constructor(private readonly target = '/var/run/docker.sock') {}

  get dockerHost(): string {
    return `unix://${this.path}`;
  }

  async start(): Promise<void> {
    this.server = createServer((client) => {
      const upstream = createConnection(this.target);
      this.sockets.add(client).add(upstream);
      client.on('data', (chunk: Buffer) => {
        for (const match of chunk.toString('latin1').matchAll(/(?:^|\r\n)(GET|POST|PUT|DELETE|HEAD) (\S+) HTTP\/1\.1\r\n/g)) {
          this.requests.push(`${match[1]} ${match[2]}`);
        }
      });
      client.pipe(upstream).pipe(client);
      const close = () => {
        client.destroy();
        upstream.destroy();
      };
      client.on('error', close).on('close', close);
      upstream.on('error', close).on('close', close);
    });
    await new Promise<void>((resolve) => this.server!.listen(this.path, resolve));
  }

  async stop(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    this.sockets.clear();
    await new Promise<void>((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
    this.server = undefined;
    await rm(this.path, { force: true });
  }
}
