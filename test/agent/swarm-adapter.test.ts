import { expect } from '@jest/globals';
import { swarmApi } from '../../src/agent/adapters/swarm-api';
import { describeDocker, testDockerClient, testDockerHost, TEST_IMAGE } from '../helpers/docker';
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
  }, 60_000);

  afterAll(async () => {
    await agent?.close();
    for (const key of keys) {
      for (const service of await swarmApi.listServices(docker, { [LABEL_KEY]: key })) {
        await swarmApi.removeService(docker, service.ID).catch(() => undefined);
      }
    }
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
