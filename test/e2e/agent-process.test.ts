import { expect } from '@jest/globals';
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, rmSync } from 'node:fs';
import { mkdtemp } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { swarmApi } from '../../src/agent/adapters/swarm-api';
import { startTestApp, type TestApp } from '../helpers/app';
import type { DeploymentBody, Named, TargetBody } from '../helpers/bodies';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { describeDocker, removeByLabel, testDockerClient, testDockerHost, TEST_IMAGE } from '../helpers/docker';
import { freePort } from '../../src/net/free-port';
import { makeGitRepo } from '../helpers/git';
import { useSwarm } from '../helpers/swarm';

const LABEL_KEY = 'platform.agent.key';
const ROOT = path.resolve(__dirname, '../..');

/**
 * End to end with every real part: the agent as its own process (`tsx src/agent/main.ts`, as
 * `npm run agent` starts it) on HTTPS with the token it wrote, the main service listening on
 * loopback, a template repo in git, and the real Docker engine (plain, then as a single-node
 * swarm). Everything goes through interface A's REST paths; the engine is only asked to check.
 */
describeDocker('the agent process behind the main service', () => {
  const docker = testDockerClient();
  afterAll(() => docker.close());

  /** A template whose web image answers its GREETING over HTTP on a fixed loopback host port. */
  function templateRepo(name: string, hostPort: number): string {
    return makeGitRepo({
      [`${name}.pmx`]: [
        `name: ${name}`,
        'description: a web server and its workers',
        'keywords: e2e',
        'type: Default',
        'images:',
        '  - name: web',
        `    source: ${TEST_IMAGE}`,
        `    command: 'sh -c "mkdir -p /www && echo $GREETING > /www/index.html && exec httpd -f -p 8080 -h /www"'`,
        '    environment:',
        '      - variable: GREETING',
        '        value: from the template',
        '    ports:',
        '      - host_interface: 127.0.0.1',
        `        host_port: ${hostPort}`,
        '        container_port: 8080',
        '    links:',
        '      - service: worker',
        '        alias: backend',
        '  - name: worker',
        `    source: ${TEST_IMAGE}`,
        '    command: sleep 3600',
        '',
      ].join('\n'),
    });
  }

  /** How a flow finds what the adapter made: the generation key of a service id, and what carries it. */
  interface Engine {
    keyOf(serviceId: string): Promise<string>;
    /** Containers, networks (and swarm services) carrying the key, once they are gone or after a while. */
    leftovers(key: string): Promise<Record<string, number>>;
    /** What leftovers() finds when nothing is left. */
    none: Record<string, number>;
    /** Instances of each image of the generation, by image name. */
    instances(key: string): Promise<Record<string, number>>;
    cleanup(key: string): Promise<void>;
  }

  const containers: Engine = {
    none: { containers: 0, networks: 0 },
    async keyOf(id) {
      return (await docker.inspectContainer(id))!.Config.Labels![LABEL_KEY];
    },
    leftovers: (key) =>
      settle(async () => ({
        containers: (await docker.listContainers({ all: true, labels: { [LABEL_KEY]: key } })).length,
        networks: (await docker.listNetworks({ labels: { [LABEL_KEY]: key } })).length,
      })),
    async instances(key) {
      const found: Record<string, number> = {};
      for (const c of await docker.listContainers({ all: true, labels: { [LABEL_KEY]: key } })) {
        const image = c.Labels['platform.agent.service'];
        found[image] = (found[image] ?? 0) + 1;
      }
      return found;
    },
    cleanup: (key) => removeByLabel(`${LABEL_KEY}=${key}`),
  };

  const swarmServices: Engine = {
    none: { services: 0, containers: 0, networks: 0 },
    async keyOf(id) {
      return (await swarmApi.inspectService(docker, id))!.Spec.Labels![LABEL_KEY];
    },
    leftovers: (key) =>
      settle(async () => ({
        services: (await swarmApi.listServices(docker, { [LABEL_KEY]: key })).length,
        containers: (await docker.listContainers({ all: true, labels: { [LABEL_KEY]: key } })).length,
        networks: (await docker.listNetworks({ labels: { [LABEL_KEY]: key } })).length,
      })),
    async instances(key) {
      const found: Record<string, number> = {};
      for (const s of await swarmApi.listServices(docker, { [LABEL_KEY]: key })) {
        found[s.Spec.Labels!['platform.agent.service']] = s.Spec.Mode.Replicated?.Replicas ?? 0;
      }
      return found;
    },
    async cleanup(key) {
      for (const s of await swarmApi.listServices(docker, { [LABEL_KEY]: key })) {
        await swarmApi.removeService(docker, s.ID).catch(() => undefined);
      }
      await removeByLabel(`${LABEL_KEY}=${key}`);
    },
  };

  function flow(adapter: 'docker' | 'swarm', engine: Engine, agentEnv: Record<string, string>) {
    describe(`with AGENT_ADAPTER=${adapter}`, () => {
      let releaseSwarm: (() => Promise<void>) | undefined;
      let agent: AgentProcess | undefined;
      let db: TestDatabase;
      let t: TestApp;
      let repoDir: string;
      let hostPort: number;
      const keys = new Set<string>();

      beforeAll(async () => {
        if (adapter === 'swarm') releaseSwarm = await useSwarm(docker);
        db = await createTestDatabase('agent_e2e');
        agent = await spawnAgent({ AGENT_ADAPTER: adapter, DATABASE_URL: db.url, ...agentEnv });
        t = await startTestApp();
        hostPort = await freePort();
        repoDir = templateRepo(`e2e-${adapter}`, hostPort);
      }, 120_000);

      afterAll(async () => {
        await agent?.kill();
        await t?.close();
        for (const key of keys) await engine.cleanup(key);
        await db?.drop();
        if (repoDir) rmSync(repoDir, { recursive: true, force: true });
        await releaseSwarm?.();
      }, 120_000);

      async function waitRunning(targetId: number, id: number): Promise<{ id: string; actualState: string }[]> {
        const until = Date.now() + 90_000;
        let last: unknown;
        while (Date.now() < until) {
          const res = await t.request<Partial<DeploymentBody> | undefined>('GET', `/deployment_targets/${targetId}/deployments/${id}`);
          last = res.body;
          const services = res.body?.status?.services;
          if (res.status === 200 && services?.length && services.every((s) => s.actualState === 'running')) return services;
          await sleep(500);
        }
        throw new Error(`deployment ${id} did not reach running: ${JSON.stringify(last)}`);
      }

      async function keyOf(serviceId: string): Promise<string> {
        const key = await engine.keyOf(serviceId);
        keys.add(key);
        return key;
      }

      test('add the target, deploy with an override, answer on the published port, redeploy, delete', async () => {
        const created = await t.request<TargetBody>('POST', '/deployment_targets', {
          body: { name: `e2e ${adapter}`, auth_blob: agent!.token },
        });
        expect(created.status).toBe(200);
        expect(created.body).toEqual({
          id: expect.any(Number),
          name: `e2e ${adapter}`,
          endpoint_url: agent!.url,
          auth_blob: expect.any(String),
          metadata: {
            id: created.body.id,
            agent_version: expect.any(String),
            adapter_version: expect.any(String),
            adapter_type: adapter,
            created_at: expect.any(String),
          },
        });
        const targetId = created.body.id;

        expect((await t.request('POST', '/template_repos', { body: { name: repoDir } })).status).toBe(200);
        const template = (await t.request<Named[]>('GET', '/templates')).body.find((tpl) => tpl.name === `e2e-${adapter}`);
        expect(template).toBeDefined();
        if (!template) return;

        const deployed = await t.request<DeploymentBody>('POST', `/deployment_targets/${targetId}/deployments`, {
          body: {
            template_id: template.id,
            override: {
              images: [
                { name: 'web', environment: [{ variable: 'GREETING', value: `hello from ${adapter}` }] },
                { name: 'worker', deployment: { count: 2 } },
              ],
            },
          },
        });
        expect(deployed.status).toBe(200);
        const id = deployed.body.id;
        expect(deployed.body).toEqual({
          id: expect.any(Number),
          name: `e2e-${adapter}`,
          status: { services: expect.arrayContaining([expect.objectContaining({ id: expect.stringContaining('-web') })]) },
        });

        const services = await waitRunning(targetId, id);
        const firstIds = services.map((s) => s.id);
        const firstKey = await keyOf(firstIds[0]);
        // count 2 for the worker: two containers (docker) or two replicas of one service (swarm).
        expect(await engine.instances(firstKey)).toEqual({ web: 1, worker: 2 });
        expect(services).toHaveLength(adapter === 'docker' ? 3 : 2);
        expect(await answer(hostPort)).toBe(`hello from ${adapter}`);

        const list = await t.request('GET', `/deployment_targets/${targetId}/deployments`);
        expect(list.body).toEqual([{ id, name: `e2e-${adapter}`, template: template.id, service_ids: firstIds.map((name) => ({ name })) }]);

        const redeployed = await t.request<DeploymentBody>('POST', `/deployment_targets/${targetId}/deployments/${id}/redeploy`);
        expect(redeployed.status).toBe(200);
        expect(redeployed.body.id).toBe(id);
        const again = await waitRunning(targetId, id);
        const secondKey = await keyOf(again[0].id);
        expect(secondKey).not.toBe(firstKey);
        expect(again.map((s) => s.id)).not.toEqual(firstIds);
        expect(await engine.instances(secondKey)).toEqual({ web: 1, worker: 2 });
        expect(await answer(hostPort)).toBe(`hello from ${adapter}`);
        expect(await engine.leftovers(firstKey)).toEqual(engine.none);

        expect((await t.request('DELETE', `/deployment_targets/${targetId}/deployments/${id}`)).status).toBe(204);
        expect(await engine.leftovers(secondKey)).toEqual(engine.none);
        const gone = await t.request('GET', `/deployment_targets/${targetId}/deployments/${id}`);
        expect(gone.status).toBe(404);
        expect((await t.request('GET', `/deployment_targets/${targetId}/deployments`)).body).toEqual([]);
        await expect(fetch(`http://127.0.0.1:${hostPort}/`)).rejects.toThrow();
        expect((await t.request('DELETE', `/deployment_targets/${targetId}`)).status).toBe(204);
      }, 240_000);

      test('SIGTERM stops the agent process and leaves nothing running', async () => {
        const stopped = await agent!.kill();
        expect(stopped).toEqual({ code: 0, signal: null, groupGone: true });
        // With DATABASE_URL the agent starts no PostgreSQL of its own; nothing may outlive it.
        expect(processesMentioning(agent!.dataDir)).toEqual([]);
      }, 60_000);
    });
  }

  flow('docker', containers, { DOCKER_HOST: testDockerHost(), AGENT_STOP_TIMEOUT_SECONDS: '1' });
  flow('swarm', swarmServices, {
    DOCKER_HOST: testDockerHost(),
    AGENT_SWARM_PUBLISH_MODE: 'host',
    AGENT_SWARM_ENDPOINT_MODE: 'dnsrr',
    AGENT_STOP_TIMEOUT_SECONDS: '1',
  });
});

interface AgentProcess {
  child: ChildProcess;
  token: string;
  url: string;
  dataDir: string;
  /** SIGTERM, then waits for the exit; SIGKILLs the process group if it does not exit in 20 s. */
  kill(): Promise<{ code: number | null; signal: NodeJS.Signals | null; groupGone: boolean }>;
}

/**
 * `tsx src/agent/main.ts` in its own process group, on a free port with a fresh data dir, resolved
 * once it has printed its token (it does so after listening) and the token file matches.
 */
async function spawnAgent(env: Record<string, string>): Promise<AgentProcess> {
  const port = await freePort();
  const dataDir = await mkdtemp(path.join(tmpdir(), 'agent-e2e-'));
  const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), ['src/agent/main.ts'], {
    cwd: ROOT,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...cleanEnv(), AGENT_PORT: String(port), AGENT_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.once('exit', (code, signal) => resolve({ code, signal })),
  );
  let exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;
  void exited.then((result) => (exit = result));

  const until = Date.now() + 60_000;
  let printed: string | undefined;
  while (!printed) {
    printed = /----- BEGIN AGENT TOKEN -----\n(\S+)\n----- END AGENT TOKEN -----/.exec(output)?.[1];
    if (printed) break;
    if (exit || Date.now() > until) {
      if (!exit) process.kill(-child.pid!, 'SIGKILL');
      throw new Error(`the agent did not start (${exit ? `exit ${exit.code ?? exit.signal}` : 'timeout'}):\n${output}`);
    }
    await sleep(100);
  }
  const tokenFile = path.join(dataDir, 'token');
  expect(readFileSync(tokenFile, 'utf8').trim()).toBe(printed);

  let killed: Promise<{ code: number | null; signal: NodeJS.Signals | null; groupGone: boolean }> | undefined;
  return {
    child,
    token: printed,
    url: `https://127.0.0.1:${port}`,
    dataDir,
    kill() {
      killed ??= (async () => {
        if (!exit) child.kill('SIGTERM');
        const timer = setTimeout(() => groupKill(child.pid!, 'SIGKILL'), 20_000);
        const result = await exited;
        clearTimeout(timer);
        // tsx runs the agent in a child node process: both must be gone.
        let groupGone = false;
        for (let i = 0; i < 50 && !groupGone; i++) {
          groupGone = !groupKill(child.pid!, 0);
          if (!groupGone) await sleep(100);
        }
        if (!groupGone) groupKill(child.pid!, 'SIGKILL');
        if (existsSync(dataDir)) rmSync(dataDir, { recursive: true, force: true });
        return { ...result, groupGone };
      })();
      return killed;
    },
  };
}

/** Sends a signal to a process group; false when the group no longer exists. */
function groupKill(pgid: number, signal: NodeJS.Signals | 0): boolean {
  try {
    process.kill(-pgid, signal);
    return true;
  } catch {
    return false;
  }
}

/** The environment without anything that would configure the agent differently from the test. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(AGENT_|ADAPTER_|DATABASE_URL$|DOCKER_HOST$|LOG_LEVEL$)/.test(key)),
  );
}

function processesMentioning(text: string): string[] {
  const ps = spawnSync('ps', ['-eo', 'pid=,args='], { encoding: 'utf8' });
  return ps.stdout.split('\n').filter((line) => line.includes(text));
}

/** The published port's answer, retried while the server inside the container comes up. */
async function answer(port: number): Promise<string> {
  for (let attempt = 0; ; attempt++) {
    try {
      const res = await fetch(`http://127.0.0.1:${port}/`);
      const text = (await res.text()).trim();
      if (res.status === 200) return text;
      if (attempt > 60) return `HTTP ${res.status}: ${text}`;
    } catch (error) {
      if (attempt > 60) throw error;
    }
    await sleep(250);
  }
}

/** Polls a count of leftovers until all are zero (swarm tasks go a moment after their service), or 30 s pass. */
async function settle(count: () => Promise<Record<string, number>>): Promise<Record<string, number>> {
  const until = Date.now() + 30_000;
  for (;;) {
    const found = await count();
    if (Object.values(found).every((n) => n === 0) || Date.now() > until) return found;
    await sleep(250);
  }
}

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
