import { randomBytes, randomInt } from 'node:crypto';
import { expect } from '@jest/globals';
import { describeDocker, makeImage, pastEvents, removeByLabel, testDockerClient, testDockerHost, TEST_IMAGE } from '../helpers/docker';
import { freePort } from '../../src/net/free-port';
import { agentRequest, startAgent, type RunningAgent, type AgentDeploymentBody } from './agent-harness';

const LABEL_KEY = 'platform.agent.key';

/** The `docker` adapter on the real engine: containers, a network per generation, published ports. */
describeDocker('agent with the docker adapter', () => {
  let agent: RunningAgent;
  const docker = testDockerClient();
  const keys = new Set<string>();
  /** Deployments whose objects the agent may not have removed (it failed, or a test did). */
  const deployments = new Set<number>();
  /** Images the tests made, removed once no container uses them. */
  const images: string[] = [];

  beforeAll(async () => {
    agent = await startAgent({ env: { AGENT_ADAPTER: 'docker', DOCKER_HOST: testDockerHost(), AGENT_STOP_TIMEOUT_SECONDS: '1' } });
    // Deployment ids no other agent on this engine uses: every object named or labelled
    // `d<id>-…` is this file's, so the engine can be asked for all of a deployment's leftovers.
    await agent.app.orm.em
      .getConnection()
      .execute(`select setval(pg_get_serial_sequence('agent_deployments', 'id'), ${randomInt(1_000_000, 2_000_000_000)})`);
  });
  afterAll(async () => {
    await agent?.close();
    for (const key of keys) await removeByLabel(`${LABEL_KEY}=${key}`);
    for (const id of deployments) {
      const { containers, networks } = await objectsOf(id);
      for (const name of containers) await docker.removeContainer(name, { force: true }).catch(() => undefined);
      for (const name of networks) await docker.removeNetwork(name).catch(() => undefined);
    }
    for (const image of images) await docker.removeImage(image, { force: true }).catch(() => undefined);
    await docker.close();
  });

  /** The id the agent gave its last deployment, created or not (it is reserved first). */
  async function lastDeploymentId(): Promise<number> {
    const [{ id }] = await agent.app.orm.em
      .getConnection()
      .execute<{ id: string }[]>(`select pg_sequence_last_value(pg_get_serial_sequence('agent_deployments', 'id')::regclass) as id`);
    return Number(id);
  }

  /**
   * Every container and network of deployment `id`, any generation: carrying the adapter's key
   * label `d<id>-…`, or named `platform-d<id>-…` (found either way, labelled or not).
   */
  async function objectsOf(id: number): Promise<{ containers: string[]; networks: string[] }> {
    const prefix = `platform-d${id}-`;
    const ours = (key: string | undefined, name: string) => key?.startsWith(`d${id}-`) || name.startsWith(prefix);
    const containers = await docker.request<{ Names: string[]; Labels: Record<string, string> }[]>('GET', '/containers/json', {
      query: { all: true },
    });
    const networks = await docker.listNetworks();
    return {
      containers: containers
        .map((c) => ({ key: c.Labels[LABEL_KEY], name: c.Names[0].slice(1) }))
        .filter((c) => ours(c.key, c.name))
        .map((c) => c.name)
        .sort(),
      networks: networks.filter((n) => ours(n.Labels?.[LABEL_KEY], n.Name)).map((n) => n.Name),
    };
  }

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
    deployments.add(id);
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
    expect(await objectsOf(id)).toEqual({ containers: [], networks: [] });
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
    deployments.add(id);
    await generationKey(created.body.service_ids[0]);
    const redeployed = await agentRequest<AgentDeploymentBody>(agent, 'POST', `/deployments/${id}/redeploy`);
    expect(redeployed.status).toBe(200);
    await generationKey(redeployed.body.service_ids[0]);
    await waitRunning(id);
    expect(await answer(redeployed.body.service_ids[0])).toBe('template');
    expect((await agentRequest(agent, 'DELETE', `/deployments/${id}`)).status).toBe(204);
    expect(await objectsOf(id)).toEqual({ containers: [], networks: [] });
  });

  test('a missing image that cannot be pulled: 502, nothing made, no row', async () => {
    const res = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
      body: { template: { name: 'nope', images: [{ name: 'x', source: '127.0.0.1:9/missing/image:1' }] } },
    });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ code: 502, message: expect.stringContaining('127.0.0.1:9/missing/image:1'), fields: '' });
    const id = await lastDeploymentId();
    deployments.add(id);
    expect(await objectsOf(id)).toEqual({ containers: [], networks: [] });
    expect((await agentRequest<AgentDeploymentBody[]>(agent, 'GET', '/deployments')).body).toEqual([]);
  });

  test('a deploy whose containers cannot start: 502, and the network and containers it made are gone, no row', async () => {
    const since = Date.now() - 1000;
    const res = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
      body: {
        template: {
          name: 'unstartable',
          images: [
            { name: 'fine', source: TEST_IMAGE, command: 'sleep 3600' },
            { name: 'broken', source: TEST_IMAGE, command: '/no/such/binary' },
          ],
        },
      },
    });
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ code: 502, message: expect.stringContaining('/no/such/binary'), fields: '' });
    const id = await lastDeploymentId();
    deployments.add(id);
    // The failure came after the adapter made its network and both containers, not before.
    const made = (await pastEvents(docker, since, Date.now(), { type: ['container', 'network'], event: ['create'] }))
      .map((event) => `${event.Type} ${event.Actor.Attributes.name}`)
      .filter((made) => made.includes(`platform-d${id}-`))
      .sort();
    expect(made).toEqual([
      expect.stringMatching(new RegExp(`^container platform-d${id}-[0-9a-f]{6}-broken-1$`)),
      expect.stringMatching(new RegExp(`^container platform-d${id}-[0-9a-f]{6}-fine-1$`)),
      expect.stringMatching(new RegExp(`^network platform-d${id}-[0-9a-f]{6}$`)),
    ]);
    expect(await objectsOf(id)).toEqual({ containers: [], networks: [] });
    expect((await agentRequest<AgentDeploymentBody[]>(agent, 'GET', '/deployments')).body).toEqual([]);
  });

  test('a redeploy whose new containers cannot start: 502, the old containers run again and the deployment answers with them', async () => {
    // An image of this test's own, so it can be swapped under the same reference between deploy
    // and redeploy: first one that serves, then one whose command does not exist.
    const ref = `platform-test/redeploy-${randomBytes(4).toString('hex')}:1`;
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
            { name: 'web', source: ref, ports: [{ host_interface: '127.0.0.1', container_port: 8080 }] },
            { name: 'worker', source: ref, deployment: { count: 2 } },
          ],
        },
      },
    });
    expect(created.status).toBe(200);
    const { id, service_ids: oldIds } = created.body;
    deployments.add(id);
    const oldKey = await generationKey(oldIds[0]);
    await waitRunning(id);
    expect(await answer(oldIds[0])).toBe('old');

    await makeImage(docker, ref, ['/no/such/binary']);
    const since = Date.now() - 1000;
    const res = await agentRequest<AgentDeploymentBody>(agent, 'POST', `/deployments/${id}/redeploy`);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ code: 502, message: expect.stringContaining('/no/such/binary'), fields: '' });

    // A new generation was made (and could not start), then removed; the old one is all there is.
    const made = (await pastEvents(docker, since, Date.now(), { type: ['container'], event: ['create'] }))
      .map((event) => event.Actor.Attributes.name)
      .filter((name) => name.startsWith(`platform-d${id}-`) && !name.startsWith(`platform-${oldKey}-`));
    expect(made.map((name) => name.replace(/-[0-9a-f]{6}-/, '-<key>-')).sort()).toEqual([
      `platform-d${id}-<key>-web-1`,
      `platform-d${id}-<key>-worker-1`,
      `platform-d${id}-<key>-worker-2`,
    ]);
    expect(await objectsOf(id)).toEqual({ containers: [...oldIds].sort(), networks: [`platform-${oldKey}`] });
    for (const name of oldIds) {
      const container = await docker.inspectContainer(name);
      expect({ name, running: container?.State.Running, image: container?.Image }).toEqual({ name, running: true, image: served });
    }

    // The agent still answers with the old containers, running, and the old web still serves.
    const list = await agentRequest<AgentDeploymentBody[]>(agent, 'GET', '/deployments');
    expect(list.body).toEqual([{ id, name: 'swapped', template: null, redeployable: true, service_ids: oldIds }]);
    const one = await agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${id}`);
    expect(one.body).toEqual({
      id,
      name: 'swapped',
      redeployable: true,
      status: { services: oldIds.map((name) => ({ id: name, actualState: 'running' })) },
    });
    expect(await answer(oldIds[0])).toBe('old');

    expect((await agentRequest(agent, 'DELETE', `/deployments/${id}`)).status).toBe(204);
    expect(await objectsOf(id)).toEqual({ containers: [], networks: [] });
  });

  test('metadata names the engine', async () => {
    const res = await agentRequest(agent, 'GET', '/metadata');
    expect(res.body).toEqual({
      agent: { version: '0.1.0', features: ['redeploy_descriptor'] },
      adapter: { version: expect.any(String), type: 'docker' },
    });
  });
});
