import { expect } from '@jest/globals';
import { describeDocker, removeByLabel, testDockerClient, testDockerHost, TEST_IMAGE } from '../helpers/docker';
import { freePort } from '../../src/net/free-port';
import { agentRequest, startAgent, type RunningAgent, type AgentDeploymentBody } from './agent-harness';

const LABEL_KEY = 'platform.agent.key';

/** The `docker` adapter on the real engine: containers, a network per generation, published ports. */
describeDocker('agent with the docker adapter', () => {
  let agent: RunningAgent;
  const docker = testDockerClient();
  const keys = new Set<string>();

  beforeAll(async () => {
    agent = await startAgent({ env: { AGENT_ADAPTER: 'docker', DOCKER_HOST: testDockerHost(), AGENT_STOP_TIMEOUT_SECONDS: '1' } });
  });
  afterAll(async () => {
    await agent?.close();
    for (const key of keys) await removeByLabel(`${LABEL_KEY}=${key}`);
    await docker.close();
  });

  const descriptor = {
    template: {
      name: 'hello',
      images: [
        {
          name: 'web',
          source: TEST_IMAGE,
          command: 'sh -c "mkdir -p /www && echo $GREETING > /www/index.html && exec httpd -f -p 8080 -h /www"',
          environment: [{ variable: 'GREETING', value: 'template' }],
          ports: [{ host_interface: '127.0.0.1', container_port: 8080 }],
          links: [{ service: 'worker', alias: 'backend' }],
        },
        { name: 'worker', source: TEST_IMAGE, command: 'sleep 3600' },
      ],
    },
    override: {
      images: [
        { name: 'web', environment: [{ variable: 'GREETING', value: 'hello from the override' }] },
        { name: 'worker', deployment: { count: 2 } },
      ],
    },
  };

  async function waitRunning(id: number): Promise<{ id: string; actualState: string }[]> {
    for (let attempt = 0; attempt < 50; attempt++) {
      const res = await agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${id}`);
      const services = res.body.status.services as { id: string; actualState: string }[];
      if (services.every((service) => service.actualState === 'running')) return services;
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
    throw new Error('the deployment did not reach running');
  }

  async function answer(containerName: string): Promise<string> {
    const container = await docker.inspectContainer(containerName);
    const hostPort = container!.NetworkSettings.Ports!['8080/tcp']![0].HostPort;
    for (let attempt = 0; ; attempt++) {
      try {
        const res = await fetch(`http://127.0.0.1:${hostPort}/`);
        return (await res.text()).trim();
      } catch (error) {
        if (attempt > 30) throw error;
        await new Promise((resolve) => setTimeout(resolve, 100));
      }
    }
  }

  async function generationKey(containerName: string): Promise<string> {
    const key = (await docker.inspectContainer(containerName))!.Config.Labels![LABEL_KEY];
    keys.add(key);
    return key;
  }

  async function leftovers(key: string): Promise<{ containers: number; networks: number }> {
    const labels = { [LABEL_KEY]: key };
    return {
      containers: (await docker.listContainers({ all: true, labels })).length,
      networks: (await docker.listNetworks({ labels })).length,
    };
  }

  test('deploy answers on its published port; redeploy and delete leave nothing behind', async () => {
    const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', { body: descriptor });
    expect(created.status).toBe(200);
    const id = created.body.id;
    expect(created.body).toEqual({
      id,
      name: 'hello',
      template: null,
      redeployable: true,
      service_ids: [
        expect.stringMatching(/^platform-d\d+-[0-9a-f]{6}-web-1$/),
        expect.stringMatching(/-worker-1$/),
        expect.stringMatching(/-worker-2$/),
      ],
    });
    const [web, worker] = created.body.service_ids;
    const firstKey = await generationKey(web);

    const services = await waitRunning(id);
    expect(services).toEqual(created.body.service_ids.map((name: string) => ({ id: name, actualState: 'running' })));
    expect(await answer(web)).toBe('hello from the override');
    // Links resolve by alias on the deployment's own network.
    const aliases = (await docker.inspectContainer(worker))!.NetworkSettings.Networks[`platform-${firstKey}`].Aliases;
    expect(aliases).toEqual(expect.arrayContaining(['worker', 'backend']));

    const redeployed = await agentRequest<AgentDeploymentBody>(agent, 'POST', `/deployments/${id}/redeploy`);
    expect(redeployed.status).toBe(200);
    expect(redeployed.body.id).toBe(id);
    const newWeb = redeployed.body.service_ids[0];
    const secondKey = await generationKey(newWeb);
    expect(secondKey).not.toBe(firstKey);
    expect(await leftovers(firstKey)).toEqual({ containers: 0, networks: 0 });
    await waitRunning(id);
    expect(await answer(newWeb)).toBe('hello from the override');

    expect((await agentRequest(agent, 'DELETE', `/deployments/${id}`)).status).toBe(204);
    expect(await leftovers(secondKey)).toEqual({ containers: 0, networks: 0 });
    expect((await agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${id}`)).status).toBe(404);
  });

  test('redeploy with a fixed host port swaps generations on the same port', async () => {
    // A port free now, below the kernel's ephemeral range (a random one in 20000–40000 was taken
    // once in CI, and the create answered 502).
    const port = await freePort();
    const fixed = {
      template: {
        name: 'fixed',
        images: [
          { ...descriptor.template.images[0], links: [], ports: [{ host_interface: '127.0.0.1', host_port: port, container_port: 8080 }] },
        ],
      },
    };
    const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', { body: fixed });
    expect(created.status).toBe(200);
    const id = created.body.id;
    await generationKey(created.body.service_ids[0]);
    const redeployed = await agentRequest<AgentDeploymentBody>(agent, 'POST', `/deployments/${id}/redeploy`);
    expect(redeployed.status).toBe(200);
    await generationKey(redeployed.body.service_ids[0]);
    await waitRunning(id);
    expect(await answer(redeployed.body.service_ids[0])).toBe('template');
    expect((await agentRequest(agent, 'DELETE', `/deployments/${id}`)).status).toBe(204);
  });

  test('a missing image that cannot be pulled: 502, nothing left behind, no row', async () => {
    const res = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
      body: { template: { name: 'nope', images: [{ name: 'x', source: '127.0.0.1:9/missing/image:1' }] } },
    });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ code: 502, message: expect.stringContaining('127.0.0.1:9/missing/image:1'), fields: '' });
    expect((await agentRequest<AgentDeploymentBody[]>(agent, 'GET', '/deployments')).body).toEqual([]);
  });

  test('metadata names the engine', async () => {
    const res = await agentRequest(agent, 'GET', '/metadata');
    expect(res.body).toEqual({ agent: { version: '0.1.0' }, adapter: { version: expect.any(String), type: 'docker' } });
  });
});
