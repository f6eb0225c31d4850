import { randomBytes, randomInt } from 'node:crypto';
import { expect } from '@jest/globals';
import { swarmApi } from '../../src/agent/adapters/swarm-api';
import { freePort } from '../../src/net/free-port';
import { describeDocker, makeImage, testDockerClient, testDockerHost, TEST_IMAGE } from '../helpers/docker';
import { useSwarm } from '../helpers/swarm';
import { agentRequest, startAgent, type RunningAgent, type AgentDeploymentBody } from './agent-harness';

const LABEL_KEY = 'platform.agent.key';

/**
 * The `swarm` adapter on a real single-node swarm. The routing mesh does not work on these
 * machines (ARCHITECTURE §6), so the agent runs with host publishing and dnsrr endpoints.
 */
describeDocker('agent with the swarm adapter', () => {
  let agent: RunningAgent;
  const docker = testDockerClient();
  let releaseSwarm: (() => Promise<void>) | undefined;
  const keys = new Set<string>();
  /** Images the tests made, removed once no task uses them. */
  const images: string[] = [];

  beforeAll(async () => {
    // Shared with the other files that use the swarm: left only when the last one is done.
    releaseSwarm = await useSwarm(docker);
    agent = await startAgent({
      env: {
        AGENT_ADAPTER: 'swarm',
        DOCKER_HOST: testDockerHost(),
        AGENT_SWARM_PUBLISH_MODE: 'host',
        AGENT_SWARM_ENDPOINT_MODE: 'dnsrr',
        AGENT_STOP_TIMEOUT_SECONDS: '1',
      },
    });
    // Deployment ids no other agent on this engine uses: every service named or labelled
    // `d<id>-…` is this file's.
    await agent.app.orm.em
      .getConnection()
      .execute(`select setval(pg_get_serial_sequence('agent_deployments', 'id'), ${randomInt(1_000_000, 2_000_000_000)})`);
  }, 60_000);

  afterAll(async () => {
    await agent?.close();
    for (const key of keys) {
      for (const service of await swarmApi.listServices(docker, { [LABEL_KEY]: key })) {
        await swarmApi.removeService(docker, service.ID).catch(() => undefined);
      }
    }
    for (const key of keys) await leftovers(key);
    for (const image of images) await docker.removeImage(image, { force: true }).catch(() => undefined);
    await releaseSwarm?.();
    await docker.close();
  }, 60_000);

  async function waitRunning(id: number, timeoutMs = 60_000): Promise<{ id: string; actualState: string }[]> {
    const until = Date.now() + timeoutMs;
    let services: { id: string; actualState: string }[] = [];
    while (Date.now() < until) {
      const res = await agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${id}`);
      services = res.body.status.services;
      if (services.every((service) => service.actualState === 'running')) return services;
      await new Promise((resolve) => setTimeout(resolve, 500));
    }
    throw new Error(`the deployment did not reach running: ${JSON.stringify(services)}`);
  }

  test('replicas reach running, the published port answers, delete leaves nothing', async () => {
    const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
      body: {
        template: {
          name: 'swarmed',
          images: [
            {
              name: 'web',
              source: TEST_IMAGE,
              command: 'sh -c "mkdir -p /www && echo $GREETING > /www/index.html && exec httpd -f -p 8080 -h /www"',
              environment: [{ variable: 'GREETING', value: 'hello swarm' }],
              ports: [{ container_port: 8080 }],
              links: [{ service: 'worker', alias: 'backend' }],
            },
            { name: 'worker', source: TEST_IMAGE, command: 'sleep 3600', deployment: { count: 2 } },
          ],
        },
      },
    });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect(created.body).toEqual({
      id,
      name: 'swarmed',
      template: null,
      redeployable: true,
      service_ids: [expect.stringMatching(/^platform-d\d+-[0-9a-f]{6}-web$/), expect.stringMatching(/^platform-d\d+-[0-9a-f]{6}-worker$/)],
    });
    const [web, worker] = created.body.service_ids;
    const key = (await swarmApi.inspectService(docker, web))!.Spec.Labels![LABEL_KEY];
    keys.add(key);
    const workerSpec = (await swarmApi.inspectService(docker, worker))!.Spec;
    expect(workerSpec.Mode).toEqual({ Replicated: { Replicas: 2 } });
    expect(workerSpec.TaskTemplate.Networks).toEqual([{ Target: expect.any(String), Aliases: ['worker', 'backend'] }]);
    // AGENT_STOP_TIMEOUT_SECONDS, in nanoseconds, where the engine keeps it (it drops it elsewhere).
    expect(workerSpec.TaskTemplate.ContainerSpec.StopGracePeriod).toBe(1_000_000_000);

    expect(await waitRunning(id)).toEqual([
      { id: web, actualState: 'running' },
      { id: worker, actualState: 'running' },
    ]);
    const running = await swarmApi.listTasks(docker, { service: [web], 'desired-state': ['running'] });
    const published = running[0].Status.PortStatus?.Ports?.[0]?.PublishedPort;
    expect(published).toEqual(expect.any(Number));
    const res = await fetch(`http://127.0.0.1:${published}/`);
    expect((await res.text()).trim()).toBe('hello swarm');

    expect((await agentRequest(agent, 'DELETE', `/deployments/${id}`)).status).toBe(204);
    expect(await swarmApi.listServices(docker, { [LABEL_KEY]: key })).toEqual([]);
    expect(await leftovers(key)).toEqual({ containers: 0, networks: 0 });
    expect((await agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${id}`)).status).toBe(404);
  }, 120_000);

  test('redeploy puts new services in place and removes the old ones', async () => {
    const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
      body: { template: { name: 'again', images: [{ name: 'idle', source: TEST_IMAGE, command: 'sleep 3600' }] } },
    });
    const id = created.body.id;
    const oldKey = (await swarmApi.inspectService(docker, created.body.service_ids[0]))!.Spec.Labels![LABEL_KEY];
    keys.add(oldKey);
    const redeployed = await agentRequest<AgentDeploymentBody>(agent, 'POST', `/deployments/${id}/redeploy`);
    expect(redeployed.status).toBe(200);
    const newKey = (await swarmApi.inspectService(docker, redeployed.body.service_ids[0]))!.Spec.Labels![LABEL_KEY];
    keys.add(newKey);
    expect(await swarmApi.listServices(docker, { [LABEL_KEY]: oldKey })).toEqual([]);
    await waitRunning(id);
    expect((await agentRequest(agent, 'DELETE', `/deployments/${id}`)).status).toBe(204);
    expect(await swarmApi.listServices(docker, { [LABEL_KEY]: newKey })).toEqual([]);
    expect(await leftovers(newKey)).toEqual({ containers: 0, networks: 0 });
    expect(await leftovers(oldKey)).toEqual({ containers: 0, networks: 0 });
  }, 120_000);

  test('redeploy with a fixed host port: the new task waits for the port, the old service goes, the new one serves on it', async () => {
    // The new task cannot be placed while the old one holds the port: the redeploy must not wait
    // for it to run (it would not, before the old service goes).
    const port = await freePort();
    const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
      body: {
        template: {
          name: 'pinned',
          images: [
            {
              name: 'web',
              source: TEST_IMAGE,
              command: 'sh -c "mkdir -p /www && echo $GREETING > /www/index.html && exec httpd -f -p 8080 -h /www"',
              environment: [{ variable: 'GREETING', value: 'pinned' }],
              ports: [{ container_port: 8080, host_port: port }],
            },
          ],
        },
      },
    });
    expect(created.status).toBe(200);
    const id = created.body.id;
    const oldKey = (await swarmApi.inspectService(docker, created.body.service_ids[0]))!.Spec.Labels![LABEL_KEY];
    keys.add(oldKey);
    await waitRunning(id);

    const redeployed = await agentRequest<AgentDeploymentBody>(agent, 'POST', `/deployments/${id}/redeploy`);
    expect(redeployed.status).toBe(200);
    const newKey = (await swarmApi.inspectService(docker, redeployed.body.service_ids[0]))!.Spec.Labels![LABEL_KEY];
    keys.add(newKey);
    expect(await deploymentKeys(id)).toEqual([newKey]);
    await waitRunning(id);
    expect((await (await fetch(`http://127.0.0.1:${port}/`)).text()).trim()).toBe('pinned');
    expect((await agentRequest(agent, 'DELETE', `/deployments/${id}`)).status).toBe(204);
    expect(await leftovers(newKey)).toEqual({ containers: 0, networks: 0 });
  }, 120_000);

  test('a redeploy whose new services cannot start: 502, the old services still run and the deployment answers with them', async () => {
    // An image of this test's own, swapped under the same reference between deploy and redeploy:
    // first one that serves, then one whose command does not exist (the node has it: no pull).
    const ref = `platform-test/swarm-redeploy-${randomBytes(4).toString('hex')}:1`;
    await makeImage(
      docker,
      ref,
      ['sh', '-c', 'mkdir -p /www && echo old > /www/index.html && exec httpd -f -p 8080 -h /www'],
      ['8080/tcp'],
    );
    const served = (await docker.inspectImage(ref)).Id;
    images.push(ref, served);
    const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
      body: {
        template: {
          name: 'swapped',
          images: [
            { name: 'web', source: ref, ports: [{ container_port: 8080 }] },
            { name: 'worker', source: ref, deployment: { count: 2 } },
          ],
        },
      },
    });
    expect(created.status).toBe(200);
    const { id, service_ids: oldIds } = created.body;
    const oldKey = (await swarmApi.inspectService(docker, oldIds[0]))!.Spec.Labels![LABEL_KEY];
    keys.add(oldKey);
    await waitRunning(id);

    await makeImage(docker, ref, ['/no/such/binary']);
    const res = await agentRequest<AgentDeploymentBody>(agent, 'POST', `/deployments/${id}/redeploy`);
    for (const key of await deploymentKeys(id)) keys.add(key);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ code: 502, message: expect.stringContaining('/no/such/binary'), fields: '' });

    // Only the old generation is left, its tasks running the image that serves.
    expect(await deploymentKeys(id)).toEqual([oldKey]);
    expect((await swarmApi.listServices(docker, { [LABEL_KEY]: oldKey })).map((service) => service.Spec.Name).sort()).toEqual(
      [...oldIds].sort(),
    );
    for (const name of oldIds) {
      const tasks = await swarmApi.listTasks(docker, { service: [name], 'desired-state': ['running'] });
      expect(tasks.map((task) => task.Status.State)).toEqual(tasks.map(() => 'running'));
    }
    const list = await agentRequest<AgentDeploymentBody[]>(agent, 'GET', '/deployments');
    expect(list.body).toEqual(expect.arrayContaining([{ id, name: 'swapped', template: null, redeployable: true, service_ids: oldIds }]));
    const one = await agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${id}`);
    expect(one.body).toEqual({
      id,
      name: 'swapped',
      redeployable: true,
      status: { services: oldIds.map((name) => ({ id: name, actualState: 'running' })) },
    });

    expect((await agentRequest(agent, 'DELETE', `/deployments/${id}`)).status).toBe(204);
    expect(await deploymentKeys(id)).toEqual([]);
    expect(await leftovers(oldKey)).toEqual({ containers: 0, networks: 0 });
  }, 180_000);

  /** The keys of deployment `id`'s services, any generation (named and labelled `d<id>-…`). */
  async function deploymentKeys(id: number): Promise<string[]> {
    const services = await docker.request<{ Spec: { Name: string; Labels?: Record<string, string> } }[]>('GET', '/services');
    const keys = services
      .filter((service) => service.Spec.Name.startsWith(`platform-d${id}-`) || service.Spec.Labels?.[LABEL_KEY]?.startsWith(`d${id}-`))
      .map((service) => service.Spec.Labels?.[LABEL_KEY] ?? service.Spec.Name);
    return [...new Set(keys)].sort();
  }

  /** Task containers and the node's copy of the overlay network go a moment after the services. */
  async function leftovers(key: string, timeoutMs = 30_000): Promise<{ containers: number; networks: number }> {
    const labels = { [LABEL_KEY]: key };
    const until = Date.now() + timeoutMs;
    for (;;) {
      const found = {
        containers: (await docker.listContainers({ all: true, labels })).length,
        networks: (await docker.listNetworks({ labels })).length,
      };
      if ((found.containers === 0 && found.networks === 0) || Date.now() > until) return found;
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  }
});
