import { rmSync } from 'node:fs';
import { parseTemplateFile } from '../../src/catalog/template-file';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified, Named, TemplateBody } from '../helpers/bodies';
import { makeGitRepo } from '../helpers/git';

/**
 * Template -> app -> template: what the app was made from comes back (description, keywords,
 * type, documentation, image names, descriptions and categories) unless the request overrides
 * it, and the preview loads back into an equal template. The engine is unreachable on purpose
 * (DOCKER_HOST points nowhere): apps are still stored, which is all a template from an app needs.
 */
const PROXY_STACK = `---
name: Proxy Stack
description: A reverse proxy in front of an app server
keywords: proxy, nginx, java
type: Tomcat
documentation: |
  # Proxy Stack
  Open port 8080.
images:
  - name: Reverse Proxy
    source: nginx:1.25
    description: Terminates HTTP and forwards to the app
    category: Web
    ports:
      - host_port: 8080
        container_port: 80
    links:
      - service: App Server
        alias: app
  - name: App Server
    source: tomcat:10
    description: Runs the application
    category: App
    environment:
      - variable: JAVA_OPTS
        value: -Xmx256m
`;

let t: TestApp;
let repo: string;
let loadedBack: string | undefined;
let original: TemplateBody;
let appId: number;

// What a template equals another by: everything but identity, source and times.
const comparable = (tpl: TemplateBody) => ({
  ...tpl,
  id: undefined,
  source: undefined,
  created_at: undefined,
  updated_at: undefined,
  images: tpl.images.map((i) => ({ ...i, id: undefined })),
});

beforeAll(async () => {
  t = await startTestApp({ DOCKER_HOST: 'unix:///nonexistent/docker.sock' });
  repo = makeGitRepo({ 'proxy-stack.pmx': PROXY_STACK });
  expect((await t.request('POST', '/template_repos', { body: { name: repo } })).body).toMatchObject({ template_count: 1 });
  original = (await t.request<TemplateBody[]>('GET', '/templates')).body[0];
  const app = await t.request<Identified>('POST', `/apps?template_id=${original.id}`);
  expect(app.status).toBe(200);
  appId = app.body.id;
});
afterAll(async () => {
  await t.close();
  rmSync(repo, { recursive: true, force: true });
  if (loadedBack) rmSync(loadedBack, { recursive: true, force: true });
});

test('the services are containers named after the images, sanitised', async () => {
  const services = (await t.request<Named[]>('GET', `/apps/${appId}/services`)).body;
  expect(services.map((s) => s.name).sort()).toEqual(['App_Server', 'Reverse_Proxy']);
});

test('POST /templates {app_id} with nothing else keeps everything the app was made from', async () => {
  const created = await t.request<TemplateBody>('POST', '/templates', { body: { app_id: appId } });
  expect(created.status).toBe(201);
  expect(comparable(created.body)).toEqual(comparable(original));
  expect(created.body).toMatchObject({
    name: 'Proxy Stack',
    description: 'A reverse proxy in front of an app server',
    keywords: 'proxy, nginx, java',
    type: 'Tomcat',
    images: [
      {
        name: 'Reverse Proxy',
        description: 'Terminates HTTP and forwards to the app',
        category: 'Web',
        links: [{ service: 'App Server', alias: 'app' }],
      },
      { name: 'App Server', description: 'Runs the application', category: 'App' },
    ],
  });
});

test("fields given in the request override the app's", async () => {
  const created = await t.request<TemplateBody>('POST', '/templates', {
    body: { app_id: appId, name: 'Other', description: 'other', keywords: 'x', type: 'Java', documentation: 'Other docs.' },
  });
  expect(created.body).toMatchObject({ name: 'Other', description: 'other', keywords: 'x', type: 'Java', documentation: 'Other docs.' });
  expect(created.body.images.map((i) => i.name)).toEqual(['Reverse Proxy', 'App Server']);
});

test('the preview loads back into an equal template, through parsing and through a repo', async () => {
  const preview = await t.request<{ template: string }>('POST', `/apps/${appId}/template`, { body: {} });
  expect(preview.status).toBe(200);
  expect(parseTemplateFile(preview.body.template, 'preview.pmx')).toEqual(parseTemplateFile(PROXY_STACK, 'proxy-stack.pmx'));
  loadedBack = makeGitRepo({ 'again.pmx': preview.body.template });
  expect((await t.request('POST', '/template_repos', { body: { name: loadedBack } })).body).toMatchObject({
    template_count: 1,
    load_errors: [],
  });
  const again = (await t.request<TemplateBody[]>('GET', '/templates')).body.find((tpl) => tpl.source === loadedBack);
  expect(again).toBeDefined();
  expect(again && comparable(again)).toEqual(comparable(original));
});

test('a renamed service gives its new name, and links follow it', async () => {
  const services = (await t.request<Named[]>('GET', `/apps/${appId}/services`)).body;
  const server = services.find((s) => s.name === 'App_Server')!;
  expect((await t.request('PUT', `/apps/${appId}/services/${server.id}`, { body: { name: 'backend', restart: false } })).status).toBe(204);
  const created = await t.request<TemplateBody>('POST', '/templates', { body: { app_id: appId } });
  expect(created.body.images.map((i) => i.name)).toEqual(['Reverse Proxy', 'backend']);
  expect(created.body.images[0].links).toEqual([{ service: 'backend', alias: 'app' }]);
});
