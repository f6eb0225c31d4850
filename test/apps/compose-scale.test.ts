import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { DockerClient } from '../../src/engines/docker-client';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, makeImage, TEST_IMAGE, testDockerClient } from '../helpers/docker';
import { freePort } from '../../src/net/free-port';
import { cleanupEngine, instanceId, suffix, waitFor } from './fixtures';

interface ServiceBody {
  name: string;
  sub_state: string | null;
  errors: { code: number; message: string; fields: string } | null;
  container_status: { replicas?: { number: number; name: string; sub_state: string | null }[] };
}

// Builds and starts of several containers take minutes on a loaded shared engine.
jest.setTimeout(240_000);

describeDocker('compose replicas in the state view, and external volumes by name', () => {
  let t: TestApp;
  let docker: DockerClient;
  let instance: string;

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

  test('the conformance scaling test: each of the client’s three containers has its state, in REST container_status and GraphQL replicas', async () => {
    await makeImage(docker, 'composespec/conformance-tests-server:latest', ['sleep', '3600']);
    await makeImage(docker, 'composespec/conformance-tests-client:latest', ['sleep', '3600']);
    try {
      // The file as published, but for its host port (8080 may be taken on a shared machine).
      const compose = readFileSync(path.join(__dirname, '../fixtures/compose-spec-conformance/scaling.yaml'), 'utf8').replace(
        '8080:8080',
        `${await freePort()}:8080`,
      );
      const created = await t.request('POST', '/apps', { body: { compose_yaml: compose, name: `scaling-${suffix()}` } });
      expect(created.status).toBe(200);
      const id = (created.body as { id: number }).id;
      const services = await waitFor(
        async () => (await t.request('GET', `/apps/${id}/services`)).body as ServiceBody[],
        (list) =>
          list.length === 2 &&
          list.every((s) => s.sub_state === 'running') &&
          list.find((s) => s.name === 'client')?.container_status.replicas?.filter((r) => r.sub_state === 'running').length === 3,
        120_000,
      );
      const client = services.find((s) => s.name === 'client')!;
      const project = `platform-app-${id}-${instance.slice(0, 8)}`;
      expect(client.container_status.replicas).toEqual(
        [1, 2, 3].map((n): unknown =>
          expect.objectContaining({ number: n, name: n === 1 ? `${project}-client` : `${project}-client-${n}`, sub_state: 'running' }),
        ),
      );
      // A service of one container keeps interface A's container_status as it was.
      expect(services.find((s) => s.name === 'server')!.container_status).not.toHaveProperty('replicas');

      // One replica is killed (exit 137): the service's own state is its first container's, the view says which one is down.
      await docker.stopContainer(`${project}-client-2`, 0);
      const one = await t.request('GET', `/apps/${id}/services/${(client as unknown as { id: number }).id}`);
      expect((one.body as ServiceBody).container_status.replicas!.map((r) => [r.number, r.sub_state])).toEqual([
        [1, 'running'],
        [2, 'failed'],
        [3, 'running'],
      ]);
      const gql = await t.graphql(
        'query($id: Int!) { app(id: $id) { services { name replicas { number name loadState activeState subState status } } } }',
        { id },
      );
      const replicas = (
        gql.body as { data: { app: { services: { name: string; replicas: { number: number; subState: string; status: string }[] }[] } } }
      ).data.app.services;
      expect(replicas.find((s) => s.name === 'client')!.replicas.map((r) => [r.number, r.subState])).toEqual([
        [1, 'running'],
        [2, 'failed'],
        [3, 'running'],
      ]);
      expect(replicas.find((s) => s.name === 'client')!.replicas[1].status).toMatch(/^Exited/);
      expect(replicas.find((s) => s.name === 'server')!.replicas).toHaveLength(1);
      expect((await t.request('DELETE', `/apps/${id}`)).status).toBe(204);
    } finally {
      for (const ref of ['composespec/conformance-tests-server:latest', 'composespec/conformance-tests-client:latest'])
        await docker.removeImage(ref, { force: true }).catch(() => undefined);
    }
  });

  test('an external volume with name: mounts the engine’s volume of that name; missing, the service says so (404) and none is made', async () => {
    const engineName = `platform-test-external-${suffix()}`;
    const compose = [
      'services:',
      '  reader:',
      `    image: ${TEST_IMAGE}`,
      `    command: sh -c 'cat /data/hello; exec sleep 3600'`,
      '    volumes: [shared:/data]',
      'volumes:',
      '  shared:',
      '    external: true',
      `    name: ${engineName}`,
      '',
    ].join('\n');
    const created = await t.request('POST', '/apps', { body: { compose_yaml: compose, name: `external-${suffix()}` } });
    expect(created.status).toBe(200);
    const id = (created.body as { id: number }).id;
    const [missing] = await waitFor(
      async () => (await t.request('GET', `/apps/${id}/services`)).body as ServiceBody[],
      (list) => list[0]?.errors !== null,
      60_000,
    );
    expect(missing.errors).toEqual({
      code: 404,
      message: `the external volume "${engineName}" (volumes.shared) does not exist on the engine: create it first (docker volume create ${engineName})`,
      fields: 'volumes',
    });
    expect(await docker.inspectVolume(engineName)).toBeNull();
    expect(await docker.inspectVolume('shared')).toBeNull();

    // Made by someone else, with a file in it: the app mounts it and leaves it when deleted.
    await docker.createVolume(engineName, { 'platform.test': 'volume' });
    try {
      const { Id } = await docker.createContainer(undefined, {
        Image: TEST_IMAGE,
        Cmd: ['sh', '-c', 'echo hello from the external volume > /data/hello'],
        Labels: { 'platform.test': 'writer' },
        HostConfig: { Binds: [`${engineName}:/data`] },
      } as never);
      await docker.startContainer(Id);
      await docker.waitContainer(Id);
      await docker.removeContainer(Id, { force: true });

      expect((await t.request('PUT', `/apps/${id}`)).status).toBe(204);
      const journal = await waitFor(
        async () => (await t.request('GET', `/apps/${id}/journal`)).body as { message: string }[],
        (lines) => Array.isArray(lines) && lines.some((l) => l.message === 'hello from the external volume'),
        60_000,
      );
      expect(journal.map((l) => l.message)).toContain('hello from the external volume');
      expect((await t.request('DELETE', `/apps/${id}`)).status).toBe(204);
      expect(await docker.inspectVolume(engineName)).toMatchObject({ Name: engineName });
    } finally {
      await docker.removeVolume(engineName).catch(() => undefined);
    }
  });
});
