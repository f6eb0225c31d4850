import { expect } from '@jest/globals';
import { createServer } from 'node:net';
import type { DockerClient } from '../../src/engines/docker-client';
import { containerName, projectName, scopedName } from '../../src/apps/engine-names';
import { startTestApp, type TestApp } from '../helpers/app';
import type { AppBody, JournalEntry, ServiceBody } from '../helpers/bodies';
import { describeDocker, TEST_IMAGE, testDockerClient } from '../helpers/docker';
import { cleanupEngine, instanceId, waitFor } from './fixtures';

/** Two consecutive free loopback ports, for a published port range. */
async function freePortPair(): Promise<number> {
  const bind = (port: number) =>
    new Promise<number>((resolve, reject) => {
      const server = createServer();
      server.once('error', reject);
      server.listen(port, '127.0.0.1', () => {
        const bound = (server.address() as { port: number }).port;
        server.close(() => resolve(bound));
      });
    });
  for (;;) {
    const first = await bind(0);
    if (first < 65535 && (await bind(first + 1).catch(() => 0)) === first + 1) return first;
  }
}

// A subnet of its own, outside the app network pool (10.192.0.0/12) and the engine's default pools.
const SUBNET = '10.250.77.0/24';

/**
 * Compose keys the engine carries, checked on the real engine with an inspect of what was made:
 * volumes_from modes, expose protocols, port ranges, tmpfs (key and volumes), a network's ipam with
 * a service's fixed address, and depends_on restart: true.
 */
describeDocker('compose keys on the real engine', () => {
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

  const journal = (id: number, done: (lines: JournalEntry[]) => boolean) =>
    waitFor(
      async () => (await t.request<JournalEntry[]>('GET', `/apps/${id}/journal`)).body,
      (l) => Array.isArray(l) && done(l),
      120_000,
    );

  test('volumes_from :ro, expose 53/udp, a port range, tmpfs, ipam with ipv4_address, depends_on restart: true', async () => {
    const port = await freePortPair();
    const compose = `
services:
  store:
    image: ${TEST_IMAGE}
    command: sh -c 'echo stored > /shared/mark; echo store up; exec sleep 3600'
    volumes:
      - /shared
      - {type: tmpfs, target: /cache, tmpfs: {size: 2m, mode: 0o1770}}
    tmpfs: /run/scratch:size=1m
    expose: ["53/udp", "8080"]
    ports: ["127.0.0.1:${port}-${port + 1}:7000-7001"]
    networks:
      fixed: {ipv4_address: 10.250.77.10}
  reader:
    image: ${TEST_IMAGE}
    command: sh -c 'cat /shared/mark; touch /shared/new 2>/dev/null && echo writable || echo read-only; exec sleep 3600'
    volumes_from: ["store:ro"]
    tmpfs: [/run/a, /run/b]
    depends_on:
      store: {condition: service_started, restart: true}
    networks: [fixed]
networks:
  fixed:
    ipam:
      config: [{subnet: ${SUBNET}, gateway: 10.250.77.1}]
`;
    const res = await t.request<AppBody>('POST', '/apps', { body: { compose_yaml: compose, name: 'keys' } });
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'keys',
      from: 'Template: App From Compose Yaml',
      errors: [],
      documentation: null,
      categories: [],
    });
    const id = res.body.id;
    const lines = await journal(id, (l) => l.some((e) => e.service === 'reader' && /writable|read-only/.test(e.message)));
    expect(lines.filter((e) => e.service === 'reader').map((e) => e.message)).toEqual(['stored', 'read-only']);

    const project = projectName(id, instance);
    const store = (await docker.inspectContainer(containerName(project, 'store')))!;
    const reader = (await docker.inspectContainer(containerName(project, 'reader')))!;
    const network = scopedName(project, 'fixed');
    expect({
      exposed: Object.keys(store.Config.ExposedPorts ?? {}).sort(),
      bindings: store.HostConfig.PortBindings,
      tmpfs: store.HostConfig.Tmpfs,
      address: store.NetworkSettings.Networks?.[network]?.IPAddress,
      readerTmpfs: reader.HostConfig.Tmpfs,
      volumesFrom: reader.HostConfig.VolumesFrom,
    }).toEqual({
      exposed: ['53/udp', '7000/tcp', '7001/tcp', '8080/tcp'],
      bindings: {
        '7000/tcp': [{ HostIp: '127.0.0.1', HostPort: String(port) }],
        '7001/tcp': [{ HostIp: '127.0.0.1', HostPort: String(port + 1) }],
      },
      tmpfs: { '/run/scratch': 'size=1m', '/cache': 'size=2097152,mode=1770' },
      address: '10.250.77.10',
      readerTmpfs: { '/run/a': '', '/run/b': '' },
      volumesFrom: [`${containerName(project, 'store')}:ro`],
    });
    const made = (await docker.inspectNetwork(network))!;
    expect((made.IPAM as { Config: unknown[] }).Config).toEqual([{ Subnet: SUBNET, Gateway: '10.250.77.1' }]);

    // What is stored and shown: the expose protocol, the port range as one mapping per port.
    const services = (await t.request<ServiceBody[]>('GET', `/apps/${id}/services`)).body;
    const stored = services.find((s) => s.name === 'store')!;
    expect({ expose: stored.expose, ports: stored.ports }).toEqual({
      expose: ['53/udp', '8080'],
      ports: [
        { host_interface: '127.0.0.1', host_port: port, container_port: 7000, proto: 'TCP' },
        { host_interface: '127.0.0.1', host_port: port + 1, container_port: 7001, proto: 'TCP' },
      ],
    });
    const exported = await t.request<{ compose_yaml: string }>('GET', `/apps/${id}/compose_yml.json`);
    expect(exported.body.compose_yaml).toContain('    volumes_from:\n      - store:ro\n');
    expect(exported.body.compose_yaml).toContain('    expose:\n      - 53/udp\n      - "8080"\n');

    // restart: true: recreating store recreates reader, which depends on it.
    const readerId = reader.Id;
    const put = await t.request('PUT', `/apps/${id}/services/${stored.id}`, { body: { description: 'again' } });
    expect(put.status).toBe(204);
    const again = (await docker.inspectContainer(containerName(project, 'reader')))!;
    expect(again.Id).not.toBe(readerId);
    expect(again.HostConfig.VolumesFrom).toEqual([`${containerName(project, 'store')}:ro`]);
  });
});
