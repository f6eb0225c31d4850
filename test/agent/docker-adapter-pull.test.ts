import { expect } from '@jest/globals';
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { readPullProgress, registryAuthHeader } from '../../src/engines/docker-pull';
import type { DockerClient } from '../../src/engines/docker-client';
import { describeDocker, testDockerClient, testDockerHost, TEST_IMAGE } from '../helpers/docker';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';
import { agentRequest, startAgent, type AgentDeploymentBody, type RunningAgent } from './agent-harness';

/**
 * The agent's docker adapter pulls a private image with the credentials of a Docker config file
 * (AGENT_DOCKER_CONFIG), through the same launcher an app's services use: the real registry
 * (Basic auth) holds the test image, which the engine then no longer has under that name.
 */
(registryAvailable() ? describeDocker : describe.skip)('the docker adapter pulls with registry credentials', () => {
  let docker: DockerClient;
  let registry: TestRegistry;
  let ref: string;
  let dir: string;
  const agents: RunningAgent[] = [];

  beforeAll(async () => {
    docker = testDockerClient();
    registry = await startRegistry({ auth: 'basic', username: 'puller', password: 's3cret' });
    ref = `${registry.host}/pt/agent-busybox:latest`;
    const auth = { username: 'puller', password: 's3cret', serveraddress: registry.host };
    await docker.request('POST', `/images/${TEST_IMAGE}/tag`, { query: { repo: `${registry.host}/pt/agent-busybox`, tag: 'latest' } });
    const pushed = await docker.stream('POST', `/images/${registry.host}/pt/agent-busybox/push`, {
      query: { tag: 'latest' },
      headers: { 'x-registry-auth': registryAuthHeader(auth) },
      timeoutMs: 120_000,
    });
    await readPullProgress(`push of ${ref}`, pushed.body);
    await docker.removeImage(ref);
    dir = await mkdtemp(path.join(os.tmpdir(), 'agent-docker-config-'));
  }, 120_000);

  afterAll(async () => {
    for (const agent of agents) await agent.close();
    await docker?.removeImage(ref).catch(() => undefined);
    await docker?.close();
    await registry?.stop();
    await rm(dir, { recursive: true, force: true });
  });

  const deploy = async (env: Record<string, string>) => {
    const agent = await startAgent({
      env: { AGENT_ADAPTER: 'docker', DOCKER_HOST: testDockerHost(), AGENT_STOP_TIMEOUT_SECONDS: '1', ...env },
    });
    agents.push(agent);
    const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
      body: { template: { name: 'private', images: [{ name: 'web', source: ref, command: 'sleep 3600' }] } },
    });
    return { agent, created };
  };

  test('without credentials the pull is refused: 502 naming the image, nothing made', async () => {
    const { created } = await deploy({});
    expect(created.status).toBe(502);
    expect(created.body).toEqual(expect.objectContaining({ code: 502, message: expect.stringContaining(`pulling image ${ref} failed`) }));
    expect(await docker.imageExists(ref)).toBe(false);
  });

  test("with the registry's entry in AGENT_DOCKER_CONFIG the image is pulled and the container runs", async () => {
    const config = path.join(dir, 'config.json');
    await writeFile(
      config,
      JSON.stringify({ auths: { [`http://${registry.host}`]: { auth: Buffer.from('puller:s3cret').toString('base64') } } }),
    );
    const { agent, created } = await deploy({ AGENT_DOCKER_CONFIG: config });
    expect(created.status).toBe(200);
    expect(await docker.imageExists(ref)).toBe(true);
    const [id] = created.body.service_ids;
    expect((await docker.inspectContainer(id))?.Config.Image).toBe(ref);
    expect((await agentRequest(agent, 'DELETE', `/deployments/${created.body.id}`)).status).toBe(204);
  });
});
