import { expect } from '@jest/globals';
import { swarmApi } from '../../src/agent/adapters/swarm-api';
import type { DockerClient } from '../../src/engines/docker-client';
import { TEST_IMAGE, testLabels } from '../helpers/docker';
import { describeSwarm3, SWARM3_SETUP_MS, useSwarm3, type Swarm3 } from '../helpers/swarm3';

interface Task {
  ID: string;
  NodeID?: string;
  Status: { State: string };
}
interface SwarmNode {
  ID: string;
  Status: { State: string; Addr: string };
}

/** Polls `check` until it returns a value; the deadline is only a safety net. */
async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs: number): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

/**
 * The three-node swarm the swarm adapter's multi-node tests run on: a replicated service spreads
 * over the nodes, and losing a node (all its processes killed at once) gets its task rescheduled
 * on the others while the two remaining managers keep the quorum.
 */
describeSwarm3('the three-node test swarm', () => {
  let swarm: Swarm3;
  let docker: DockerClient;
  let serviceId: string | undefined;
  const labels = testLabels();

  beforeAll(async () => {
    swarm = await useSwarm3();
    docker = swarm.client(1);
  }, SWARM3_SETUP_MS);

  afterAll(async () => {
    if (serviceId) await swarmApi.removeService(docker, serviceId).catch(() => undefined);
    await docker?.close();
    await swarm?.release();
  }, SWARM3_SETUP_MS);

  const runningTasks = async (service: string) =>
    (await docker.request<Task[]>('GET', '/tasks', { query: { filters: { service: [service], 'desired-state': ['running'] } } })).filter(
      (task) => task.Status.State === 'running',
    );

  test('spreads three replicas over the three nodes and moves the lost node’s task to the others', async () => {
    const nodes = await docker.request<SwarmNode[]>('GET', '/nodes');
    const nodeId = (n: number) => {
      const found = nodes.find((node) => node.Status.Addr === swarm.addrs[n - 1]);
      if (!found) throw new Error(`no swarm node at ${swarm.addrs[n - 1]}: ${JSON.stringify(nodes.map((node) => node.Status))}`);
      return found.ID;
    };
    const [one, two, three] = [nodeId(1), nodeId(2), nodeId(3)];

    // The Engine API directly, not swarmApi.createService: its spec type has StopGracePeriod in the
    // TaskTemplate, where the engine ignores it (it belongs in the ContainerSpec).
    const { ID } = await docker.request<{ ID: string }>('POST', '/services/create', {
      body: {
        Name: `platform-swarm3-${labels['platform.test']}`,
        Labels: labels,
        TaskTemplate: {
          // sleep as PID 1 ignores SIGTERM: 1 s, not the default 10 s, before SIGKILL on removal.
          ContainerSpec: { Image: TEST_IMAGE, Args: ['sleep', '3600'], Labels: labels, StopGracePeriod: 1_000_000_000 },
          RestartPolicy: { Condition: 'any' },
        },
        Mode: { Replicated: { Replicas: 3 } },
        // No IPVS in this kernel, so no virtual IP: DNS round robin.
        EndpointSpec: { Mode: 'dnsrr' },
      },
    });
    serviceId = ID;

    const spread = await waitFor(
      '3 running tasks',
      async () => {
        const tasks = await runningTasks(ID);
        return tasks.length === 3 ? tasks : undefined;
      },
      60_000,
    );
    expect(new Set(spread.map((task) => task.NodeID))).toEqual(new Set([one, two, three]));

    const lostAt = Date.now();
    await swarm.stopNode(3);
    await waitFor(
      'node 3 to be marked down',
      async () => {
        const node = await docker.request<SwarmNode>('GET', `/nodes/${three}`);
        return node.Status.State === 'down' ? node : undefined;
      },
      90_000,
    );
    const downAfter = Date.now() - lostAt;
    const moved = await waitFor(
      '3 running tasks on nodes 1 and 2',
      async () => {
        const tasks = (await runningTasks(ID)).filter((task) => task.NodeID !== three);
        return tasks.length === 3 ? tasks : undefined;
      },
      120_000,
    );
    console.info(`node 3 lost: marked down after ${downAfter} ms, 3 tasks running again after ${Date.now() - lostAt} ms`);
    expect(new Set(moved.map((task) => task.NodeID))).toEqual(new Set([one, two]));

    await swarm.startNode(3);
    const back = await docker.request<SwarmNode>('GET', `/nodes/${three}`);
    expect(back.Status.State).toBe('ready');

    await swarmApi.removeService(docker, ID);
    serviceId = undefined;
    const clients = [1, 2, 3].map((n) => swarm.client(n));
    try {
      await waitFor(
        'the service’s containers to go from every node',
        async () => {
          const left = await Promise.all(clients.map((client) => client.listContainers({ all: true, labels })));
          return left.every((containers) => containers.length === 0) ? true : undefined;
        },
        60_000,
      );
    } finally {
      await Promise.all(clients.map((client) => client.close()));
    }
  }, 300_000);
});
