import { expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { swarmApi } from '../../src/agent/adapters/swarm-api';
import { freePort } from '../../src/net/free-port';
import type { DockerClient } from '../../src/engines/docker-client';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import type { DeploymentBody, TargetBody } from '../helpers/bodies';
import { describeBrowser, launchChromium } from '../helpers/browser';
import { TEST_IMAGE } from '../helpers/docker';
import { describeSwarm3, SWARM3_SETUP_MS, useSwarm3, type Swarm3 } from '../helpers/swarm3';
import { agentRequest, startAgent, type AgentDeploymentBody, type RunningAgent } from './agent-harness';

const LABEL_KEY = 'platform.agent.key';
const ROOT = path.resolve(__dirname, '../..');

interface Task {
  ID: string;
  NodeID?: string;
  DesiredState: string;
  Status: {
    State: string;
    /** Why the task is not running, e.g. the scheduler finding no node for it. */
    Err?: string;
    ContainerStatus?: { ContainerID?: string };
    PortStatus?: { Ports?: { PublishedPort: number; TargetPort: number }[] };
  };
}
interface SwarmNode {
  ID: string;
  Status: { State: string; Addr: string };
  ManagerStatus?: { Leader?: boolean };
}

/** Polls `check` until it returns a value; the deadline is only a safety net. */
async function waitFor<T>(what: string | (() => string), check: () => Promise<T | undefined>, timeoutMs = 120_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${typeof what === 'string' ? what : what()}`);
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/**
 * Each replica of `web` serves its hostname (the task container's short id) at `/`, and at
 * `/cgi-bin/peers` the hostnames of every replica it finds under the name `web` on the
 * deployment's overlay network (dnsrr: one DNS record per task), asked over that network.
 */
const PEERS_CGI = [
  '#!/bin/sh',
  // CRLF: undici refuses header lines that end in a bare LF.
  'printf "Content-Type: text/plain\\r\\n\\r\\n"',
  'for a in $(nslookup web | sed -n "s/^Address: *\\([0-9.]*\\)$/\\1/p"); do timeout 5 wget -q -O- http://$a:8080/; done',
].join('\n');
const WEB_COMMAND =
  'sh -c "mkdir -p /www/cgi-bin && hostname > /www/index.html && echo \\"$PEERS\\" > /www/cgi-bin/peers && chmod +x /www/cgi-bin/peers && exec httpd -f -p 8080 -h /www"';

/**
 * The `swarm` adapter on a real three-node swarm (three managers, .ci/swarm3-up.sh), through
 * interface B: replicas spread over the nodes and reach each other over the deployment's overlay
 * network; losing a node (its engine and containers killed at once) turns the deployment
 * `pending` until the swarm has run the lost replicas again elsewhere, as the agent, the main
 * service's REST and GraphQL APIs and the console all show; redeploy and delete work with the
 * node down; an agent whose own manager is the lost node answers 502; and once the node is back
 * nothing of the deployments is left on any node.
 */
describeBrowser('the swarm adapter on three nodes', () => {
  describeSwarm3('through the agent', () => {
    let swarm: Swarm3;
    /** On the manager the agent talks to, which stays up. */
    let docker: DockerClient;
    let agent: RunningAgent;
    /** An agent whose manager is the node the tests stop. */
    let lostAgent: RunningAgent;
    let t: TestApp;
    let browser: Browser;
    let page: Page;
    let targetId: number;
    /** Node numbers (1-3): the agent's manager, and the node the tests lose (not the raft leader). */
    let managerNode: number;
    let lostNode: number;
    let nodeDown = false;
    const nodeIds: string[] = [];
    const keys = new Set<string>();
    const sfx = Math.random().toString(36).slice(2, 8);
    const name = `spread-${sfx}`;
    let deploymentId: number;
    let lostDeploymentId: number;

    beforeAll(async () => {
      execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.js'), '--console', '--if-stale'], { stdio: 'inherit' });
      swarm = await useSwarm3();
      const probe = swarm.client(1);
      let nodes: SwarmNode[];
      try {
        nodes = await probe.request<SwarmNode[]>('GET', '/nodes');
      } finally {
        await probe.close();
      }
      for (const addr of swarm.addrs) {
        const node = nodes.find((candidate) => candidate.Status.Addr === addr);
        if (!node) throw new Error(`no swarm node at ${addr}: ${JSON.stringify(nodes.map((n) => n.Status))}`);
        nodeIds.push(node.ID);
      }
      // The lost node is not the raft leader: losing the leader adds an election (~10 s, during
      // which managers answer "no leader"), which is the swarm's business, not the adapter's.
      const leaderNode = nodeIds.indexOf(nodes.find((node) => node.ManagerStatus?.Leader)?.ID ?? '') + 1;
      lostNode = [3, 2, 1].find((n) => n !== leaderNode)!;
      managerNode = [1, 2, 3].find((n) => n !== lostNode)!;
      docker = swarm.client(managerNode);

      const env = (host: string) => ({
        AGENT_ADAPTER: 'swarm',
        DOCKER_HOST: host,
        AGENT_SWARM_PUBLISH_MODE: 'host',
        AGENT_SWARM_ENDPOINT_MODE: 'dnsrr',
        AGENT_STOP_TIMEOUT_SECONDS: '1',
      });
      agent = await startAgent({ env: env(swarm.hosts[managerNode - 1]) });
      lostAgent = await startAgent({ env: env(swarm.hosts[lostNode - 1]) });
      t = await startTestApp();
      const target = await t.request<TargetBody>('POST', '/deployment_targets', {
        body: { name: `swarm3-${sfx}`, auth_blob: agent.token },
      });
      expect(target.status).toBe(200);
      targetId = target.body.id;
      browser = await launchChromium();
    }, SWARM3_SETUP_MS);

    afterAll(async () => {
      await browser?.close();
      await t?.close();
      await lostAgent?.close();
      await agent?.close();
      // The lost node first (when a test failed before it came back), so that every node drops its
      // task containers and its copy of the networks once the services are gone; release last,
      // since it lets the next test file have the cluster.
      if (nodeDown) await swarm.startNode(lostNode).catch((error: unknown) => console.error(String(error)));
      if (docker) {
        for (const key of keys) {
          for (const service of await swarmApi.listServices(docker, { [LABEL_KEY]: key })) {
            await swarmApi.removeService(docker, service.ID).catch(() => undefined);
          }
        }
        // The cluster keeps a network while tasks of a removed service still stop on it.
        for (const key of keys) {
          await waitFor(
            `the networks of ${key} to go`,
            async () => {
              const left = await docker.listNetworks({ labels: { [LABEL_KEY]: key } });
              for (const net of left) await docker.removeNetwork(net.Id).catch(() => undefined);
              return left.length === 0 ? true : undefined;
            },
            60_000,
          ).catch((error: unknown) => console.error(String(error)));
        }
        await docker.close();
      }
      await swarm?.release();
    }, SWARM3_SETUP_MS);

    const keyOf = async (serviceId: string) => {
      const key = (await swarmApi.inspectService(docker, serviceId))!.Spec.Labels![LABEL_KEY];
      keys.add(key);
      return key;
    };
    const runningTasks = async (serviceId: string) =>
      (
        await docker.request<Task[]>('GET', '/tasks', { query: { filters: { service: [serviceId], 'desired-state': ['running'] } } })
      ).filter((task) => task.Status.State === 'running');
    const statesOf = async (a: RunningAgent, id: number) => {
      const res = await agentRequest<AgentDeploymentBody>(a, 'GET', `/deployments/${id}`);
      if (res.status !== 200) throw new Error(`GET /deployments/${id}: ${res.status} ${JSON.stringify(res.body)}`);
      return res.body.status.services.map((service) => service.actualState);
    };
    const node = (nodeId: string | undefined) => nodeIds.indexOf(nodeId ?? '') + 1;

    test('a deployment of count 3 spreads over the three nodes, and its replicas reach each other over its overlay network', async () => {
      const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
        body: {
          template: {
            name,
            images: [
              {
                name: 'web',
                source: TEST_IMAGE,
                command: WEB_COMMAND,
                environment: [{ variable: 'PEERS', value: PEERS_CGI }],
                ports: [{ container_port: 8080 }],
                deployment: { count: 3 },
              },
            ],
          },
        },
      });
      expect(created.status).toBe(200);
      deploymentId = created.body.id;
      const [web] = created.body.service_ids;
      await keyOf(web);

      const tasks = await waitFor('3 running replicas', async () => {
        const running = await runningTasks(web);
        return running.length === 3 ? running : undefined;
      });
      expect(tasks.map((task) => node(task.NodeID)).sort()).toEqual([1, 2, 3]);
      await waitFor('the agent to read running', async () =>
        (await statesOf(agent, deploymentId)).join() === 'running' ? true : undefined,
      );

      // Each replica answers at its own node's address (host-mode publishing), and each finds all
      // three, those on the other nodes included, over the overlay network.
      const hostnames = tasks.map((task) => task.Status.ContainerStatus!.ContainerID!.slice(0, 12)).sort();
      for (const task of tasks) {
        const base = `http://${swarm.addrs[node(task.NodeID) - 1]}:${task.Status.PortStatus!.Ports![0].PublishedPort}`;
        expect((await (await fetch(`${base}/`)).text()).trim()).toBe(task.Status.ContainerStatus!.ContainerID!.slice(0, 12));
        // DNS records of a replica that has just started may lag a moment behind its task state.
        let found: string[] = [];
        await waitFor(
          () => `replica ${task.ID} to reach the three replicas ${hostnames.join()} (it reached ${found.join()})`,
          async () => {
            found = (await (await fetch(`${base}/cgi-bin/peers`)).text()).trim().split('\n').sort();
            return found.join() === hostnames.join() ? true : undefined;
          },
          30_000,
        );
      }
    }, 180_000);

    test('a fixed host port with count 4: one replica on each node, answering on that port at its node’s address, and the fourth pending', async () => {
      // Host-mode publishing: the swarm puts at most one replica with the port on each node.
      const port = await freePort();
      const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
        body: {
          template: {
            name: `fixed-${sfx}`,
            images: [
              {
                name: 'edge',
                source: TEST_IMAGE,
                command: 'sh -c "mkdir -p /www && hostname > /www/index.html && exec httpd -f -p 8080 -h /www"',
                ports: [{ container_port: 8080, host_port: port }],
                deployment: { count: 4 },
              },
            ],
          },
        },
      });
      expect({ status: created.status, body: created.body }).toEqual({
        status: 200,
        body: { id: expect.any(Number), name: `fixed-${sfx}`, template: null, redeployable: true, service_ids: [expect.any(String)] },
      });
      const [edge] = created.body.service_ids;
      const key = await keyOf(edge);
      const { running, unplaced } = await waitFor('3 running replicas and one the scheduler cannot place', async () => {
        const tasks = await docker.request<Task[]>('GET', '/tasks', {
          query: { filters: { service: [edge], 'desired-state': ['running'] } },
        });
        const up = tasks.filter((task) => task.Status.State === 'running');
        const waiting = tasks.filter((task) => task.Status.State === 'pending' && task.Status.Err);
        return up.length === 3 && waiting.length === 1 ? { running: up, unplaced: waiting[0] } : undefined;
      });
      expect(unplaced.Status.Err).toBe('no suitable node (host-mode port already in use on 3 nodes)');
      expect(await statesOf(agent, created.body.id)).toEqual(['pending']);
      const answers = await Promise.all(swarm.addrs.map(async (addr) => (await (await fetch(`http://${addr}:${port}/`)).text()).trim()));
      expect(answers).toEqual(
        [1, 2, 3].map((n) => running.find((task) => node(task.NodeID) === n)?.Status.ContainerStatus?.ContainerID?.slice(0, 12)),
      );
      expect((await agentRequest(agent, 'DELETE', `/deployments/${created.body.id}`)).status).toBe(204);
      expect(await leftovers(key, [1, 2, 3])).toEqual([1, 2, 3].map(() => ({ containers: 0, networks: 0 })));
    }, 180_000);

    test('losing a node: pending until its replica runs again elsewhere, then running, as the agent, the main service and the console show', async () => {
      const web = await serviceOf(deploymentId);
      // The agent on the node about to be lost has a deployment of its own there (for the 502 test).
      const created = await agentRequest<AgentDeploymentBody>(lostAgent, 'POST', '/deployments', {
        body: { template: { name: `lost-${sfx}`, images: [{ name: 'idle', source: TEST_IMAGE, command: 'sleep 3600' }] } },
      });
      expect(created.status).toBe(200);
      lostDeploymentId = created.body.id;
      await keyOf(created.body.service_ids[0]);

      page = await openTarget();
      const shown = page.locator(`tr[data-deployment="${name}"] span.state`);
      await waitFor('the page to show the deployment running', async () =>
        (await shown.allInnerTexts()).join() === 'running' ? true : undefined,
      );

      const sources: Record<string, () => Promise<string>> = {
        agent: async () => (await statesOf(agent, deploymentId)).join(),
        rest: async () => {
          const res = await t.request<DeploymentBody>('GET', `/deployment_targets/${targetId}/deployments/${deploymentId}`);
          return res.body.status.services.map((service) => service.actualState).join();
        },
        graphql: async () => {
          const res = await t.graphql<{
            deploymentTarget: { deployments: { databaseId: number; status: { services: { actualState: string }[] } }[] };
          }>(`query { deploymentTarget(id: ${targetId}) { deployments { databaseId status { services { actualState } } } } }`);
          const deployment = res.body.data.deploymentTarget.deployments.find((d) => d.databaseId === deploymentId);
          return deployment!.status.services.map((service) => service.actualState).join();
        },
        console: async () => (await shown.allInnerTexts()).join(),
      };
      const seen: Record<string, string[]> = Object.fromEntries(Object.keys(sources).map((source) => [source, []]));
      const record = async () => {
        const states = await Promise.all(Object.values(sources).map((read) => read()));
        Object.keys(sources).forEach((source, i) => {
          if (seen[source].at(-1) !== states[i]) seen[source].push(states[i]);
        });
      };

      await record();
      nodeDown = true;
      await swarm.stopNode(lostNode);
      // Until the managers mark the node down (a few missed heartbeats), its task still counts as
      // running in their view; then the task is replaced, after the restart delay, on another node.
      const moved = await waitFor(
        () =>
          `the lost replica to run again on another node, and every view to show pending and then running (seen ${JSON.stringify(seen)})`,
        async () => {
          await record();
          const back = Object.values(seen).every((states) => states.includes('pending') && states.at(-1) === 'running');
          if (!back) return undefined;
          const running = await runningTasks(web);
          return running.length === 3 && running.every((task) => node(task.NodeID) !== lostNode) ? running : undefined;
        },
        240_000,
      );
      console.info(`node ${lostNode} lost: states seen ${JSON.stringify(seen)}`);
      // Each view went through the same states, once each: no flapping, no error on the way.
      const sequence = ['running', 'pending', 'running'];
      expect(seen).toEqual({ agent: sequence, rest: sequence, graphql: sequence, console: sequence });
      expect(new Set(moved.map((task) => node(task.NodeID)))).toEqual(new Set([1, 2, 3].filter((n) => n !== lostNode)));
      const rest = await t.request<DeploymentBody>('GET', `/deployment_targets/${targetId}/deployments/${deploymentId}`);
      expect(rest.body).toEqual({ id: deploymentId, name, status: { services: [{ id: web, actualState: 'running' }] } });
    }, 300_000);

    test('the agent whose manager is the lost node answers 502, and keeps its deployment', async () => {
      const unreachable = { code: 502, message: expect.stringContaining('is unreachable'), fields: '' };
      const id = lostDeploymentId;
      for (const [method, pathname] of [
        ['GET', '/metadata'],
        ['GET', `/deployments/${id}`],
        ['GET', '/deployments?include=status'],
        ['POST', `/deployments/${id}/redeploy`],
        ['DELETE', `/deployments/${id}`],
      ]) {
        const res = await agentRequest(lostAgent, method, pathname);
        expect({ call: `${method} ${pathname}`, status: res.status, body: res.body }).toEqual({
          call: `${method} ${pathname}`,
          status: 502,
          body: unreachable,
        });
      }
      const create = await agentRequest(lostAgent, 'POST', '/deployments', {
        body: { template: { name: 'never', images: [{ name: 'idle', source: TEST_IMAGE, command: 'sleep 3600' }] } },
      });
      expect({ status: create.status, body: create.body }).toEqual({ status: 502, body: unreachable });
      // The rows are the agent's own: listed as they were.
      const listed = await agentRequest<AgentDeploymentBody[]>(lostAgent, 'GET', '/deployments');
      expect(listed.status).toBe(200);
      expect(listed.body.map((d) => d.id)).toEqual([id]);
    }, 60_000);

    test('with the node down, redeploy puts the replicas on the other nodes and removes the old service, and delete removes everything', async () => {
      const old = await serviceOf(deploymentId);
      const oldKey = await keyOf(old);
      const redeployed = await agentRequest<AgentDeploymentBody>(agent, 'POST', `/deployments/${deploymentId}/redeploy`);
      expect(redeployed.status).toBe(200);
      const [web] = redeployed.body.service_ids;
      expect(web).not.toBe(old);
      const newKey = await keyOf(web);
      expect(await swarmApi.listServices(docker, { [LABEL_KEY]: oldKey })).toEqual([]);
      const tasks = await waitFor('3 running replicas of the new service', async () => {
        const running = await runningTasks(web);
        return running.length === 3 ? running : undefined;
      });
      expect(new Set(tasks.map((task) => node(task.NodeID)))).toEqual(new Set([1, 2, 3].filter((n) => n !== lostNode)));
      await waitFor('running', async () => ((await statesOf(agent, deploymentId)).join() === 'running' ? true : undefined));
      await waitFor('the page to show the new service running', async () => {
        const ids = await page.locator(`tr[data-deployment="${name}"] code`).allInnerTexts();
        const states = await page.locator(`tr[data-deployment="${name}"] span.state`).allInnerTexts();
        return ids.join() === web && states.join() === 'running' ? true : undefined;
      });

      expect((await agentRequest(agent, 'DELETE', `/deployments/${deploymentId}`)).status).toBe(204);
      expect(await swarmApi.listServices(docker, { [LABEL_KEY]: newKey })).toEqual([]);
      expect((await agentRequest(agent, 'GET', `/deployments/${deploymentId}`)).status).toBe(404);
      // The cluster's network of each generation is gone; the surviving nodes drop their copies
      // once their task containers have stopped.
      const surviving = [1, 2, 3].filter((n) => n !== lostNode);
      for (const key of [oldKey, newKey]) {
        expect(await leftovers(key, surviving)).toEqual(surviving.map(() => ({ containers: 0, networks: 0 })));
      }
      // Deleted behind the page's back: it shows so once it reads the target again.
      await page.reload();
      await page.getByText('No deployments yet.').waitFor({ timeout: 30_000 });
    }, 240_000);

    test('the node comes back: the other agent works again, and nothing of the deployments is left on any node', async () => {
      await swarm.startNode(lostNode);
      nodeDown = false;
      await waitFor('the other agent to read its deployment running', async () =>
        (await statesOf(lostAgent, lostDeploymentId)).join() === 'running' ? true : undefined,
      );
      expect((await agentRequest(lostAgent, 'DELETE', `/deployments/${lostDeploymentId}`)).status).toBe(204);
      for (const key of keys) {
        expect(await leftovers(key, [1, 2, 3])).toEqual([1, 2, 3].map(() => ({ containers: 0, networks: 0 })));
      }
    }, 240_000);

    async function serviceOf(id: number): Promise<string> {
      const res = await agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${id}`);
      return res.body.status.services[0].id;
    }

    /** The console's page of the target, signed in. */
    async function openTarget(): Promise<Page> {
      const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
      const opened = await context.newPage();
      await opened.goto(t.url);
      await opened.getByLabel('API token').fill(ADMIN_TOKEN);
      await opened.getByRole('button', { name: 'Sign in' }).click();
      await opened.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Targets' }).click();
      await opened.getByRole('link', { name: `swarm3-${sfx}` }).click();
      await opened.getByText('adapter swarm').waitFor();
      return opened;
    }

    /**
     * What each of `nodes` still has of generation `key`: task containers, and its copy of the
     * overlay network. Both go a moment after the services, so this waits for them to go.
     */
    async function leftovers(key: string, nodes: number[], timeoutMs = 60_000): Promise<{ containers: number; networks: number }[]> {
      const labels = { [LABEL_KEY]: key };
      const clients = nodes.map((n) => swarm.client(n));
      const until = Date.now() + timeoutMs;
      try {
        for (;;) {
          const found = await Promise.all(
            clients.map(async (client) => ({
              containers: (await client.listContainers({ all: true, labels })).length,
              networks: (await client.listNetworks({ labels })).length,
            })),
          );
          if (found.every((f) => f.containers === 0 && f.networks === 0) || Date.now() > until) return found;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      } finally {
        await Promise.all(clients.map((client) => client.close()));
      }
    }
  });
});
