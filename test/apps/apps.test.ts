import { expect } from '@jest/globals';
import { request as undiciRequest } from 'undici';
import { startTestApp, type TestApp } from '../helpers/app';
import type { AppBody, ErrorBody, Identified, JournalEntry, ServiceBody } from '../helpers/bodies';
import { describeDocker, TEST_IMAGE, testDockerClient } from '../helpers/docker';
import { freePort } from '../../src/net/free-port';
import type { DockerClient } from '../../src/engines/docker-client';
import { cleanupEngine, image, instanceId, seedTemplate, suffix, waitFor } from './fixtures';

const ISO: unknown = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
const RUNNING = { load_state: 'loaded', active_state: 'active', sub_state: 'running' };
const STARTING = { load_state: 'loaded', active_state: 'activating', sub_state: 'start-pre' };
const states = (s: { load_state: string; active_state: string; sub_state: string }) => ({
  load_state: s.load_state,
  active_state: s.active_state,
  sub_state: s.sub_state,
});

describeDocker('apps on the Docker engine', () => {
  let t: TestApp;
  let docker: DockerClient;
  let instance: string;
  const sfx = suffix();
  const names = { db: `db-${sfx}`, web: `web-${sfx}`, data: `data-${sfx}` };
  let port: number;
  let templateId: number;
  let appId: number;
  let services: Record<'db' | 'web' | 'data', number>;

  beforeAll(async () => {
    t = await startTestApp();
    docker = testDockerClient();
    instance = await instanceId(t);
    port = await freePort();
    templateId = await seedTemplate(t, {
      name: `Linked ${sfx}`,
      documentation: 'Three busybox services: a page, a shared volume and a front that serves both.',
      images: [
        // The front fetches the page through its link alias and reads the shared file, then serves them.
        image({
          name: names.web,
          category: 'Web',
          ports: [{ host_interface: '127.0.0.1', host_port: port, container_port: 80, proto: 'TCP' }],
          links: [{ service: names.db, alias: 'backend' }],
          volumes_from: [{ service: names.data }],
          environment: [{ variable: 'GREETING', value: 'hi' }],
          command: `sh -c 'mkdir -p /www; until wget -q -O /www/index.html http://backend/; do sleep 0.2; done; until [ -f /data/x ]; do sleep 0.2; done; cat /data/x >> /www/index.html; echo "front up $GREETING"; exec httpd -f -p 80 -h /www'`,
        }),
        image({
          name: names.db,
          category: 'Database',
          command: `sh -c 'mkdir -p /www && echo hello-from-db > /www/index.html && echo db ready && exec httpd -f -p 80 -h /www'`,
        }),
        image({
          name: names.data,
          category: 'Web',
          volumes: [{ container_path: '/data' }],
          command: `sh -c 'echo shared-data > /data/x; exec sleep 3600'`,
        }),
      ],
    });
  });

  afterAll(async () => {
    await t?.close();
    await cleanupEngine(instance);
    await docker?.close();
  });

  const listServices = async () => (await t.request<ServiceBody[]>('GET', `/apps/${appId}/services`)).body;
  const byName = (list: ServiceBody[], name: string): ServiceBody => {
    const found = list.find((s) => s.name === name);
    if (!found) throw new Error(`no service ${name} among ${list.map((s) => s.name).join(', ')}`);
    return found;
  };

  test('POST /apps?template_id= stores the app and starts its services: starting, then running', async () => {
    const res = await t.request<AppBody>('POST', `/apps?template_id=${templateId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: `Linked ${sfx}`,
      from: `Template: Linked ${sfx}`,
      errors: [],
      documentation: 'Three busybox services: a page, a shared volume and a front that serves both.',
      categories: [
        { id: expect.any(Number), name: 'Web', position: 0 },
        { id: expect.any(Number), name: 'Database', position: 1 },
      ],
    });
    appId = res.body.id;

    // The start runs after the answer: the front, last in dependency order, is still starting.
    const first = await listServices();
    expect(states(byName(first, names.web))).toEqual(STARTING);

    // Each service now also creates its named volumes and reads its links' containers: allow a loaded engine time.
    const running = await waitFor(listServices, (list) => list.length === 3 && list.every((s) => s.sub_state === 'running'), 120_000);
    services = { db: byName(running, names.db).id, web: byName(running, names.web).id, data: byName(running, names.data).id };
    const web = byName(running, names.web);
    const categories = res.body.categories;
    expect(web).toEqual({
      id: services.web,
      name: names.web,
      description: null,
      from: TEST_IMAGE,
      ports: [{ host_interface: '127.0.0.1', host_port: port, container_port: 80, proto: 'TCP' }],
      expose: [],
      default_exposed_ports: [],
      environment: [{ variable: 'GREETING', value: 'hi', required: null }],
      volumes: [],
      command: expect.stringContaining('httpd'),
      restart_policy: null,
      ...RUNNING,
      type: null,
      errors: null,
      container_status: expect.objectContaining({
        id: expect.any(String),
        image: TEST_IMAGE,
        state: 'running',
        running: true,
        exit_code: null,
        ports: [{ container_port: 80, proto: 'tcp', host_interface: '127.0.0.1', host_port: port }],
      }),
      app: { id: appId, name: `Linked ${sfx}` },
      categories: [categories[0]],
      links: [{ id: String(services.db), service: names.db, alias: 'backend' }],
      volumes_from: [{ service: names.data }],
    });
  }, 180_000);

  test('the published port answers, through the link and the shared volume', async () => {
    const body = await waitFor(
      async () => {
        try {
          const res = await undiciRequest(`http://127.0.0.1:${port}/`);
          return res.statusCode === 200 ? await res.body.text() : '';
        } catch {
          return '';
        }
      },
      (text) => text !== '',
    );
    expect(body).toBe('hello-from-db\nshared-data\n');
  });

  test('GET /apps/:app_id/services/:id carries the inspect data (start time, network)', async () => {
    const res = await t.request<ServiceBody>('GET', `/apps/${appId}/services/${services.db}`);
    expect(res.status).toBe(200);
    expect(states(res.body)).toEqual(RUNNING);
    expect(res.body.container_status).toEqual(
      expect.objectContaining({ state: 'running', started_at: ISO, finished_at: null, exit_code: null }),
    );
    expect(Object.keys(res.body.container_status.info.NetworkSettings.Networks)).toEqual([`platform-app-${appId}-${instance.slice(0, 8)}`]);
  });

  test('GET /apps and GET /apps/:id', async () => {
    const one = await t.request('GET', `/apps/${appId}`);
    expect(one.status).toBe(200);
    expect((await t.request('GET', '/apps')).body).toEqual([one.body]);
    expect((await t.request('GET', '/apps/9999')).status).toBe(404);
  });

  test('journal: the containers output, oldest first, with a cursor to poll from', async () => {
    const journal = await waitFor(
      async () => (await t.request<JournalEntry[]>('GET', `/apps/${appId}/journal`)).body,
      (entries) => entries.some((e) => e.message.startsWith('front up')),
    );
    expect(journal.filter((e) => e.service !== names.data)).toEqual([
      { timestamp: ISO, service: names.db, stream: 'stdout', message: 'db ready', cursor: expect.any(String) },
      { timestamp: ISO, service: names.web, stream: 'stdout', message: 'front up hi', cursor: expect.any(String) },
    ]);
    const last = journal[journal.length - 1].cursor;
    const after = await t.request('GET', `/apps/${appId}/journal?cursor=${encodeURIComponent(last)}`);
    expect(after).toMatchObject({ status: 200, body: [] });
    const one = await t.request('GET', `/apps/${appId}/services/${services.db}/journal?limit=5`);
    expect(one.body).toEqual([{ timestamp: ISO, service: names.db, stream: 'stdout', message: 'db ready', cursor: expect.any(String) }]);
    const bad = await t.request('GET', `/apps/${appId}/journal?since=yesterday`);
    expect(bad.body).toEqual({ code: 400, message: expect.stringContaining('since'), fields: 'since' });
  });

  test('a crashing service shows failed, and its journal says why', async () => {
    const res = await t.request<ServiceBody>('POST', `/apps/${appId}/services`, {
      body: { name: `crash/${sfx}`, from: TEST_IMAGE, command: `sh -c 'echo about to crash; echo oops >&2; exit 3'` },
    });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ name: `crash_${sfx}`, from: TEST_IMAGE, app: { id: appId, name: `Linked ${sfx}` }, errors: null });
    const crashed = await waitFor(
      async () => (await t.request<ServiceBody>('GET', `/apps/${appId}/services/${res.body.id}`)).body,
      (s) => s.active_state === 'failed',
    );
    expect(states(crashed)).toEqual({ load_state: 'loaded', active_state: 'failed', sub_state: 'failed' });
    expect(crashed.container_status).toEqual(expect.objectContaining({ state: 'exited', exit_code: 3, finished_at: ISO }));
    const journal = await t.request<JournalEntry[]>('GET', `/apps/${appId}/services/${res.body.id}/journal`);
    // The engine stamps each stream as it copies it: across streams the order is not the write order.
    expect(journal.body.map((e) => [e.stream, e.message]).sort()).toEqual([
      ['stderr', 'oops'],
      ['stdout', 'about to crash'],
    ]);
    // Not in the spec's table: removing a service is GraphQL only.
    const removed = await t.graphql(
      'mutation($a: Int!, $id: Int!) { deleteService(input: {appId: $a, id: $id}) { ... on Service { databaseId name } } }',
      { a: appId, id: res.body.id },
    );
    expect(removed.body).toEqual({ data: { deleteService: { databaseId: res.body.id, name: `crash_${sfx}` } } });
    expect(
      await docker.listContainers({ all: true, labels: { 'platform.service': String(res.body.id), 'platform.instance': instance } }),
    ).toEqual([]);
  });

  test('PUT a service recreates its container with the new environment; restart: false only saves', async () => {
    const before = (await t.request<ServiceBody>('GET', `/apps/${appId}/services/${services.web}`)).body;
    const put = await t.request('PUT', `/apps/${appId}/services/${services.web}`, {
      // Clients PUT back what they read: read-only fields are ignored.
      body: { ...before, environment: [{ variable: 'GREETING', value: 'changed' }] },
    });
    expect(put.status).toBe(204);
    const after = await waitFor(
      async () => (await t.request<ServiceBody>('GET', `/apps/${appId}/services/${services.web}`)).body,
      (s) => s.sub_state === 'running',
    );
    expect(after.container_status.id).not.toBe(before.container_status.id);
    expect(after.environment).toEqual([{ variable: 'GREETING', value: 'changed', required: null }]);
    expect(after.links).toEqual(before.links);
    const inspect = await docker.inspectContainer(after.container_status.id);
    expect(inspect?.Config.Env).toContain('GREETING=changed');

    const quiet = await t.request('PUT', `/apps/${appId}/services/${services.web}`, {
      body: { description: 'the front', restart: 'false' },
    });
    expect(quiet.status).toBe(204);
    const kept = (await t.request<ServiceBody>('GET', `/apps/${appId}/services/${services.web}`)).body;
    expect(kept).toMatchObject({ description: 'the front', environment: [{ variable: 'GREETING', value: 'changed', required: null }] });
    expect(kept.container_status.id).toBe(after.container_status.id);
  });

  test('validation: 400 and 422 with the offending fields', async () => {
    const cases: [string, string, unknown, number, string][] = [
      ['POST', '/apps', {}, 400, 'template_id'],
      ['POST', '/apps?template_id=abc', undefined, 400, 'template_id'],
      ['POST', `/apps/${appId}/services`, { name: 'x' }, 400, 'from'],
      ['POST', `/apps/${appId}/services`, { name: ' ', from: TEST_IMAGE }, 422, 'name'],
      ['POST', `/apps/${appId}/services`, { name: 'p', from: TEST_IMAGE, ports: [{ host_port: 1 }] }, 422, 'ports'],
      ['POST', `/apps/${appId}/services`, { name: 'p', from: TEST_IMAGE, ports: [{ host_port: port, container_port: 80 }] }, 422, 'ports'],
      ['POST', `/apps/${appId}/services`, { name: 'e', from: TEST_IMAGE, expose: ['80', 'http'] }, 422, 'expose'],
      ['POST', `/apps/${appId}/services`, { name: 'v', from: TEST_IMAGE, volumes: [{ host_path: '/tmp' }] }, 422, 'volumes'],
      ['POST', `/apps/${appId}/services`, { name: 'l', from: TEST_IMAGE, links: [{ service: 'nope', alias: 'n' }] }, 422, 'links'],
      ['POST', `/apps/${appId}/services`, { name: 'l', from: TEST_IMAGE, links: [{ service: 'l' }] }, 422, 'links'],
      ['POST', `/apps/${appId}/services`, { name: 'f', from: TEST_IMAGE, volumes_from: [{ service: 'nope' }] }, 422, 'volumes_from'],
      // db linking to web, which links to db: no start order.
      ['PUT', `/apps/${appId}/services/${services.db}`, { links: [{ id: String(services.web), alias: 'front' }] }, 422, 'links'],
      ['PUT', `/apps/${appId}/services/${services.db}`, { ports: [{ container_port: 80, host_port: port }] }, 422, 'ports'],
    ];
    for (const [method, path, body, status, fields] of cases) {
      const res = await t.request<ErrorBody | undefined>(method, path, { body });
      expect({ path, body, status: res.status, fields: res.body?.fields }).toEqual({ path, body, status, fields });
      expect(res.body).toEqual({ code: status, message: expect.any(String), fields });
    }
    expect((await t.request('POST', '/apps?template_id=9999')).status).toBe(404);
    expect((await t.request('GET', `/apps/${appId}/services/9999`)).status).toBe(404);
    expect((await t.request('GET', `/apps/9999/services/${services.db}`)).status).toBe(404);

    const cyclic = await seedTemplate(t, {
      name: `cycle ${sfx}`,
      images: [
        image({ name: `a-${sfx}`, links: [{ service: `b-${sfx}`, alias: 'b' }] }),
        image({ name: `b-${sfx}`, volumes_from: [{ service: `a-${sfx}` }] }),
      ],
    });
    const res = await t.request('POST', `/apps?template_id=${cyclic}`);
    expect(res.body).toEqual({ code: 422, message: expect.stringContaining('cycle'), fields: 'links' });
    expect((await t.request('GET', '/apps')).body).toHaveLength(1);
  });

  test('a service of another app is 404 under this one', async () => {
    const other = await t.request<Identified>('POST', '/apps', {
      body: { compose_yaml: `lonely-${sfx}:\n  image: ${TEST_IMAGE}\n  command: sleep 3600\n` },
    });
    expect(other.status).toBe(200);
    expect((await t.request('GET', `/apps/${other.body.id}/services/${services.db}`)).status).toBe(404);
    expect((await t.request('PUT', `/apps/${other.body.id}/services/${services.db}`, { body: { description: 'x' } })).status).toBe(404);
    expect((await t.request('DELETE', `/apps/${other.body.id}`)).status).toBe(204);
  });

  test('PUT /apps/:id rebuilds every container; DELETE leaves no container or network behind', async () => {
    const before = await listServices();
    expect((await t.request('PUT', `/apps/${appId}`)).status).toBe(204);
    const after = await waitFor(listServices, (list) => list.every((s) => s.sub_state === 'running'));
    for (const service of after) {
      expect(service.container_status.id).not.toBe(byName(before, service.name).container_status.id);
    }
    const labels = { 'platform.instance': instance, 'platform.app': String(appId) };
    expect(await docker.listContainers({ all: true, labels })).toHaveLength(3);

    expect((await t.request('DELETE', `/apps/${appId}`)).status).toBe(204);
    expect(await docker.listContainers({ all: true, labels })).toEqual([]);
    expect(await docker.listNetworks({ labels })).toEqual([]);
    expect((await t.request('GET', `/apps/${appId}`)).body).toEqual({ code: 404, message: `app ${appId} not found`, fields: 'id' });
    expect((await t.request('GET', `/apps/${appId}/services`)).status).toBe(404);
  });
});
