import { expect } from '@jest/globals';
import { request as undiciRequest } from 'undici';
import { startTestApp, type TestApp } from '../helpers/app';
import type { AppBody, ServiceBody } from '../helpers/bodies';
import { describeDocker, TEST_IMAGE } from '../helpers/docker';
import { freePort } from '../../src/net/free-port';
import { cleanupEngine, EngineProxy, image, instanceId, seedTemplate, suffix, waitFor } from './fixtures';

/**
 * The service talks to the engine through a counting unix-socket proxy (the shared dockerd is
 * never stopped): stopping the proxy makes the engine unreachable, starting it again brings it back.
 */
describeDocker('an engine that goes away, and what reads cost', () => {
  let t: TestApp;
  let instance: string;
  const proxy = new EngineProxy();
  const sfx = suffix();
  let templateId: number;
  let port: number;

  beforeAll(async () => {
    await proxy.start();
    t = await startTestApp({ DOCKER_HOST: proxy.dockerHost });
    instance = await instanceId(t);
    port = await freePort();
    templateId = await seedTemplate(t, {
      name: `pair ${sfx}`,
      images: [
        image({ name: `front-${sfx}`, links: [{ service: `back-${sfx}`, alias: 'back' }], command: 'sleep 3600' }),
        image({
          name: `back-${sfx}`,
          command: `sh -c 'echo hello > /index.html; exec httpd -f -p 80 -h /'`,
          ports: [{ host_interface: '127.0.0.1', host_port: port, container_port: 80 }],
        }),
      ],
    });
  });

  afterAll(async () => {
    await t?.close();
    await proxy.stop();
    await cleanupEngine(instance);
  });

  test('engine down: the app is stored (200), errors say so, states are null; rebuild and journals are 502', async () => {
    await proxy.stop();
    const created = await t.request<AppBody>('POST', `/apps?template_id=${templateId}`);
    expect(created.status).toBe(200);
    const unreachable = expect.stringMatching(new RegExp(`^container engine at unix://${proxy.path} is unreachable`));
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: `pair ${sfx}`,
      from: `Template: pair ${sfx}`,
      errors: [{ message: unreachable }],
      documentation: null,
      categories: [],
    });
    const appId = created.body.id;

    const services = await t.request<ServiceBody[]>('GET', `/apps/${appId}/services`);
    expect(services.status).toBe(200);
    expect(services.body.map((s) => [s.name, s.load_state, s.active_state, s.sub_state, s.errors, s.container_status])).toEqual([
      [`front-${sfx}`, null, null, null, { code: 502, message: unreachable, fields: '' }, {}],
      [`back-${sfx}`, null, null, null, { code: 502, message: unreachable, fields: '' }, {}],
    ]);

    for (const [method, path] of [
      ['PUT', `/apps/${appId}`],
      ['GET', `/apps/${appId}/journal`],
      ['GET', `/apps/${appId}/services/${services.body[1].id}/journal`],
      ['DELETE', `/apps/${appId}`],
    ]) {
      const res = await t.request(method, path);
      expect({ path, status: res.status, body: res.body }).toEqual({
        path,
        status: 502,
        body: { code: 502, message: unreachable, fields: '' },
      });
    }

    // An update is stored all the same (204), and a new service too (200).
    const put = await t.request('PUT', `/apps/${appId}/services/${services.body[1].id}`, {
      body: { environment: [{ variable: 'MODE', value: 'later' }] },
    });
    expect(put.status).toBe(204);
    const added = await t.request('POST', `/apps/${appId}/services`, {
      body: { name: `extra-${sfx}`, from: TEST_IMAGE, command: 'sleep 3600' },
    });
    expect(added.status).toBe(200);
    expect(added.body).toMatchObject({
      name: `extra-${sfx}`,
      load_state: null,
      active_state: null,
      sub_state: null,
      errors: { code: 502 },
    });

    // The engine comes back: nothing was lost, and a rebuild brings the stored definitions up.
    await proxy.start();
    expect((await t.request('PUT', `/apps/${appId}`)).status).toBe(204);
    const running = await waitFor(
      async () => (await t.request<ServiceBody[]>('GET', `/apps/${appId}/services`)).body,
      (list) => list.length === 3 && list.every((s) => s.sub_state === 'running'),
    );
    expect(running.map((s) => [s.name, s.errors])).toEqual([
      [`front-${sfx}`, null],
      [`back-${sfx}`, null],
      [`extra-${sfx}`, null],
    ]);
    expect(running[1].container_status.info).toBeDefined();
    expect((await t.request<AppBody>('GET', `/apps/${appId}`)).body.errors).toEqual([]);
    const answer = await waitFor(
      async () => {
        try {
          return await (await undiciRequest(`http://127.0.0.1:${port}/`)).body.text();
        } catch {
          return '';
        }
      },
      (text) => text !== '',
    );
    expect(answer).toBe('hello\n');
  });

  test('a list of services costs one engine call; one service a list and an inspect', async () => {
    const [app] = (await t.request<AppBody[]>('GET', '/apps')).body;
    const list = await t.request<ServiceBody[]>('GET', `/apps/${app.id}/services`);
    proxy.requests.length = 0;
    const again = await t.request<ServiceBody[]>('GET', `/apps/${app.id}/services`);
    expect(again.body).toHaveLength(3);
    expect(proxy.requests).toEqual([expect.stringMatching(/^GET \/containers\/json\?all=true&filters=/)]);
    proxy.requests.length = 0;
    await t.request('GET', `/apps/${app.id}/services/${list.body[0].id}`);
    expect(proxy.requests).toEqual([
      expect.stringMatching(/^GET \/containers\/json\?/),
      expect.stringMatching(/^GET \/containers\/[0-9a-f]{64}\/json$/),
    ]);
  });

  test('a port already taken fails that service only; the others run', async () => {
    const res = await t.request<AppBody>('POST', '/apps', {
      body: {
        compose_yaml: `version: "3"\nservices:\n  taker-${sfx}:\n    image: ${TEST_IMAGE}\n    command: sleep 3600\n    ports: ["127.0.0.1:${port}:80"]\n  calm-${sfx}:\n    image: ${TEST_IMAGE}\n    command: sleep 3600\n`,
      },
    });
    expect(res.status).toBe(200);
    const list = await waitFor(
      async () => (await t.request<ServiceBody[]>('GET', `/apps/${res.body.id}/services`)).body,
      (l) => l.every((s) => s.sub_state !== 'start-pre'),
    );
    const [taker, calm] = list;
    expect(calm.sub_state).toBe('running');
    expect(taker).toMatchObject({
      load_state: 'loaded',
      active_state: 'inactive',
      sub_state: 'dead',
      errors: { code: 409, fields: 'ports', message: expect.stringContaining('already in use') },
    });
    expect((await t.request<AppBody>('GET', `/apps/${res.body.id}`)).body.errors).toEqual([
      { message: expect.stringMatching(new RegExp(`^taker-${sfx}: a host port`)) },
    ]);
  });

  test("an image that is not on the engine and cannot be pulled is that service's error", async () => {
    const res = await t.request<AppBody>('POST', '/apps', { body: { image: `127.0.0.1:9/nothing/here-${sfx}:1` } });
    expect(res.status).toBe(200);
    const [service] = await waitFor(
      async () => (await t.request<ServiceBody[]>('GET', `/apps/${res.body.id}/services`)).body,
      (l) => l[0].errors !== null,
    );
    expect(service).toMatchObject({
      sub_state: 'dead',
      load_state: 'not-found',
      errors: { code: 502, fields: 'from', message: expect.stringContaining(`pulling image 127.0.0.1:9/nothing/here-${sfx}:1 failed`) },
    });
  });
});
