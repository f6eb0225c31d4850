import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseDescriptor } from '../../src/agent/descriptor';
import { parseTemplateFile, serializeTemplateFile } from '../../src/catalog/template-file';
import { TemplateImage } from '../../src/catalog/template.entity';
import { IMAGE_COLUMNS } from '../../src/catalog/template-shape';
import { serviceFields, serviceImage } from '../../src/apps/service-image';
import { deploymentDescriptor } from '../../src/targets/deployment-descriptor';
import { IMAGE_KEYS, imageFromStored, imageView, storedImage } from '../../src/parts/image';

/**
 * The one shape module, on every real template of the original ecosystem: each direction
 * (file -> stored -> back, stored row -> view, definition -> descriptor the agent accepts,
 * image -> service -> image) keeps every field.
 */
const FIXTURES = path.join(__dirname, '..', 'fixtures');
const templates = ['panamax-public-templates', 'panamax-public-templates-removed'].flatMap((dir) =>
  readdirSync(path.join(FIXTURES, dir))
    .filter((f) => f.endsWith('.pmx'))
    .map((f) => parseTemplateFile(readFileSync(path.join(FIXTURES, dir, f), 'utf8'), f)),
);
// No file of the corpus shares volumes; one that does (and sets a count), written here.
templates.push(
  parseTemplateFile(
    'name: shared\nimages:\n  - {name: data, source: busybox, volumes: [{container_path: /data}]}\n' +
      '  - {name: app, source: nginx, volumes_from: [{service: data}], deployment: {count: 2}}\n',
    'shared.pmx',
  ),
);
const images = templates.flatMap((t) => t.images);

test('the fixtures have images with every kind of part', () => {
  for (const part of ['ports', 'links', 'environment', 'volumes', 'volumes_from', 'expose'] as const) {
    expect([part, images.some((image) => image[part].length > 0)]).toEqual([part, true]);
  }
});

test('every image field is a stored property of TemplateImage and a column the read path selects', () => {
  const properties = Object.keys(TemplateImage.meta.properties);
  for (const key of IMAGE_KEYS) {
    expect(properties).toContain(key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase()));
    expect(IMAGE_COLUMNS.split(', ')).toContain(key);
  }
});

test.each(images.map((image) => [image.name, image] as const))('%s: definition -> stored -> definition is the same', (_, image) => {
  const stored = storedImage(image);
  expect(stored.volumesFrom).toBe(image.volumes_from);
  expect(imageFromStored(stored)).toEqual(image);
  // A raw row names its columns in snake_case, as the definition does.
  expect(imageFromStored({ ...image })).toEqual(image);
});

test('the view carries every field in GraphQL names, parts in camelCase', () => {
  const image = images.find((i) => i.ports.length > 0 && i.environment.length > 0)!;
  const view = imageView(image, 7);
  expect(view).toEqual({
    id: 7,
    name: image.name,
    source: image.source,
    description: image.description,
    category: image.category,
    type: image.type,
    command: image.command,
    restartPolicy: null,
    expose: image.expose,
    ports: image.ports.map((p) => ({
      hostInterface: p.host_interface ?? null,
      hostPort: p.host_port ?? null,
      containerPort: p.container_port,
      proto: p.proto ?? null,
    })),
    links: image.links,
    environment: image.environment.map((e) => ({ variable: e.variable, value: e.value, required: e.required ?? null })),
    volumes: image.volumes.map((v) => ({ hostPath: v.host_path ?? null, containerPath: v.container_path })),
    volumesFrom: image.volumes_from,
    deployment: image.deployment,
  });
});

test.each(templates.map((t) => [t.name, t] as const))('%s: the descriptor sent to an agent is accepted by it', (_, template) => {
  const accepted = parseDescriptor(JSON.parse(JSON.stringify(deploymentDescriptor(3, template, []))));
  expect(accepted.images.map((i) => i.name)).toEqual(template.images.map((i) => i.name));
  expect(accepted.id).toBe(3);
});

test('an image made a service and back is the same image (links and volumes_from by name, as the app resolves them)', () => {
  for (const image of images) {
    const service = serviceFields(image);
    const back = serviceImage(service, {
      name: service.imageName,
      category: image.category,
      links: image.links,
      volumes_from: image.volumes_from,
      deployment: image.deployment,
    });
    expect({ ...back, source: back.source }).toEqual({
      ...image,
      name: image.name.trim(),
      source: image.source.trim(),
      expose: image.expose.map(String),
    });
  }
});

test('a template written to its file form and read back is equal (the file direction)', () => {
  for (const template of templates) {
    const again = parseTemplateFile(serializeTemplateFile(template), 'again.pmx');
    expect(again.images).toEqual(template.images);
  }
});
