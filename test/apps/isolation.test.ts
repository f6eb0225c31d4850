import { expect } from '@jest/globals';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { startTestApp, type TestApp } from '../helpers/app';
import type { AppBody, JournalEntry, ServiceBody } from '../helpers/bodies';
import { describeDocker, testDockerClient } from '../helpers/docker';
import type { DockerClient } from '../../src/engines/docker-client';
import { cleanupEngine, instanceId, waitFor } from './fixtures';

const SIDE_BY_SIDE = readFileSync(path.join(__dirname, '../fixtures/compose/side-by-side.yaml'), 'utf8');

describeDocker('apps are isolated: app-scoped names, services reached by their own names', () => {
  let t: TestApp;
  let docker: DockerClient;
  let instance: string;
  const apps: number[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    docker = testDockerClient();
    instance = await instanceId(t);
  });

  afterAll(async () => {
    await t?.close();
    await cleanupEngine(instance);
    await docker?.close();
  });

  const journal = (id: number) =>
    waitFor(
      async () => (await t.request<JournalEntry[]>('GET', `/apps/${id}/journal`)).body,
      (lines) => Array.isArray(lines) && lines.some((l) => l.message.startsWith('DATABASE_PORT=')),
      180_000,
    );

  // Generous waits: on a loaded shared machine the engine takes seconds over each network and container.
  test('two copies of one compose file run side by side; in each, db and its alias resolve with the link variables set', async () => {
    for (let i = 0; i < 2; i += 1) {
      const res = await t.request<AppBody>('POST', '/apps', { body: { compose_yaml: SIDE_BY_SIDE } });
      expect(res.status).toBe(200);
      apps.push(res.body.id);
    }
    for (const id of apps) {
      const services = (await t.request<ServiceBody[]>('GET', `/apps/${id}/services`)).body;
      // The spec's names are the file's: not made unique across apps.
      expect(services.map((s) => s.name)).toEqual(['db', 'web']);
      const lines = (await journal(id)).filter((l) => l.service === 'web').map((l) => l.message);
      const project = `platform-app-${id}-${instance.slice(0, 8)}`;
      const db = (
        await docker.listContainers({ labels: { 'platform.instance': instance, 'platform.service': String(services[0].id) } })
      )[0];
      expect(db.Names).toEqual([`/${project}-db`]);
      const ip = (await docker.inspectContainer(db.Id))!.NetworkSettings.Networks[project].IPAddress;
      expect(lines).toEqual([
        'resolved db',
        'resolved database',
        // Docker's legacy link variables, sorted by `sort`.
        `DATABASE_ENV_ROLE=database`,
        `DATABASE_NAME=/${project}-web/database`,
        `DATABASE_PORT=tcp://${ip}:80`,
        `DATABASE_PORT_80_TCP=tcp://${ip}:80`,
        `DATABASE_PORT_80_TCP_ADDR=${ip}`,
        `DATABASE_PORT_80_TCP_PORT=80`,
        `DATABASE_PORT_80_TCP_PROTO=tcp`,
      ]);
    }
  }, 400_000);

  test("each copy has its own named volume; deleting one leaves the other's alone", async () => {
    const volumes = async () => (await docker.listVolumes({ labels: { 'platform.instance': instance } })).map((v) => v.Name).sort();
    const [first, second] = apps;
    const name = (id: number) => `platform-app-${id}-${instance.slice(0, 8)}_data`;
    expect(await volumes()).toEqual([name(first), name(second)].sort());
    expect((await t.request('DELETE', `/apps/${first}`)).status).toBe(204);
    expect(await volumes()).toEqual([name(second)]);
    // The other copy still runs, on its own network.
    const services = (await t.request<ServiceBody[]>('GET', `/apps/${second}/services`)).body;
    expect(services.map((s) => [s.name, s.sub_state])).toEqual([
      ['db', 'running'],
      ['web', 'running'],
    ]);
  });

  test('a tenth copy still starts (names never clash)', async () => {
    const ids: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      const res = await t.request<AppBody>('POST', '/apps', {
        body: { compose_yaml: 'services:\n  one:\n    image: platform-test/busybox:latest\n    command: sleep 3600\n' },
      });
      ids.push(res.body.id);
    }
    const res = await t.request<AppBody>('POST', '/apps', { body: { compose_yaml: SIDE_BY_SIDE } });
    expect(res.status).toBe(200);
    const tenth = await waitFor(
      async () => (await t.request<ServiceBody[]>('GET', `/apps/${res.body.id}/services`)).body,
      (l) => Array.isArray(l) && l.every((s) => s.sub_state === 'running' || s.errors),
      180_000,
    );
    expect(tenth.map((s) => [s.name, s.sub_state, s.errors])).toEqual([
      ['db', 'running', null],
      ['web', 'running', null],
    ]);
    const lines = (await journal(res.body.id)).filter((l) => l.service === 'web').map((l) => l.message);
    expect(lines.slice(0, 2)).toEqual(['resolved db', 'resolved database']);
    for (const id of ids) {
      const [one] = await waitFor(
        async () => (await t.request<ServiceBody[]>('GET', `/apps/${id}/services`)).body,
        (l) => Array.isArray(l) && l[0]?.sub_state === 'running',
        180_000,
      );
      expect(one).toMatchObject({ name: 'one', errors: null });
    }
  }, 600_000);

  test('a relative bind is refused with a 422 naming volumes, and nothing is stored', async () => {
    const before = (await t.request<AppBody[]>('GET', '/apps')).body.length;
    const res = await t.request<AppBody>('POST', '/apps', {
      body: { compose_yaml: 'services:\n  a:\n    image: platform-test/busybox:latest\n    volumes: ["./conf:/etc/conf"]\n' },
    });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 422,
      message: expect.stringContaining('services.a.volumes[0]: "./conf" is a relative host path'),
      fields: 'compose_yaml',
    });
    expect((await t.request<AppBody[]>('GET', '/apps')).body).toHaveLength(before);
    const service = await t.request('POST', `/apps/${apps[1]}/services`, {
      body: { name: 'x', from: 'platform-test/busybox:latest', volumes: [{ host_path: '../up', container_path: '/x' }] },
    });
    expect(service.body).toEqual({ code: 422, message: expect.stringContaining('"../up" is a relative host path'), fields: 'volumes' });
  });
});
