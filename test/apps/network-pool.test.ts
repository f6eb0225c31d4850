import { startTestApp, type TestApp } from '../helpers/app';
import type { AppBody, ServiceBody } from '../helpers/bodies';
import { describeDocker, TEST_IMAGE, testDockerClient } from '../helpers/docker';
import type { DockerClient } from '../../src/engines/docker-client';
import { NetworkPool } from '../../src/apps/network-pool';
import { parseCidr } from '../../src/net/cidr';
import { cleanupEngine, instanceId, waitFor } from './fixtures';

test('parseCidr reads IPv4 CIDRs to their network address', () => {
  expect(parseCidr('10.251.7.0/26')).toEqual([10 * 2 ** 24 + 251 * 2 ** 16 + 7 * 256, 26]);
  expect(parseCidr('10.251.7.9/24')).toEqual([10 * 2 ** 24 + 251 * 2 ** 16 + 7 * 256, 24]);
  expect(() => parseCidr('10.300.0.0/16')).toThrow('not an IPv4 CIDR');
  expect(() => new NetworkPool('10.0.0.0/24', 16)).toThrow('does not fit');
});

// A pool of two /27 blocks in a range nothing else on the test machine uses.
describeDocker("app networks from the service's own address pool", () => {
  let t: TestApp;
  let docker: DockerClient;
  let instance: string;

  beforeAll(async () => {
    t = await startTestApp({ APP_NETWORK_POOL: '10.251.7.0/26', APP_NETWORK_PREFIX: '27' });
    docker = testDockerClient();
    instance = await instanceId(t);
  });

  afterAll(async () => {
    await t?.close();
    await cleanupEngine(instance);
    await docker?.close();
  });

  test('each app network gets a block of the pool; when it is full, the app and each service say why', async () => {
    const compose = (name: string) => ({
      compose_yaml: `name: ${name}\nservices:\n  one:\n    image: ${TEST_IMAGE}\n    command: sleep 3600\n  two:\n    image: ${TEST_IMAGE}\n    command: sleep 3600\n`,
    });
    const ids: number[] = [];
    for (const name of ['first', 'second']) {
      const res = await t.request<AppBody>('POST', '/apps', { body: compose(name) });
      expect(res.body.name).toBe(name);
      ids.push(res.body.id);
      await waitFor(
        async () => (await t.request<ServiceBody[]>('GET', `/apps/${res.body.id}/services`)).body,
        (l) => Array.isArray(l) && l.every((s) => s.sub_state === 'running'),
        180_000,
      );
    }
    const subnets = await Promise.all(
      ids.map(async (id) => {
        const network = await docker.inspectNetwork(`platform-app-${id}-${instance.slice(0, 8)}`);
        return (network!.IPAM as { Config: { Subnet: string }[] }).Config[0].Subnet;
      }),
    );
    expect(subnets.sort()).toEqual(['10.251.7.0/27', '10.251.7.32/27']);

    const third = await t.request<AppBody>('POST', '/apps', { body: compose('third') });
    expect(third.status).toBe(200);
    const message = `no free /27 subnet left in the app network pool 10.251.7.0/26 (APP_NETWORK_POOL) for network platform-app-${third.body.id}-${instance.slice(0, 8)}`;
    const services = await waitFor(
      async () => (await t.request<ServiceBody[]>('GET', `/apps/${third.body.id}/services`)).body,
      (l) => Array.isArray(l) && l.every((s) => s.errors),
      180_000,
    );
    expect(services.map((s) => [s.name, s.errors])).toEqual([
      ['one', { code: 409, message, fields: 'network' }],
      ['two', { code: 409, message, fields: 'network' }],
    ]);
    expect((await t.request<AppBody>('GET', `/apps/${third.body.id}`)).body.errors).toEqual([{ message }]);
  }, 600_000);
});
