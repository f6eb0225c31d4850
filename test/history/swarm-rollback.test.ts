import { expect } from '@jest/globals';
import { randomInt } from 'node:crypto';
import { swarmApi } from '../../src/agent/adapters/swarm-api';
import { startAgent, type RunningAgent } from '../agent/agent-harness';
import { image, seedTemplate, suffix } from '../apps/fixtures';
import { pushBits as pushImageBits, removePushedImages } from './fixtures';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, testDockerClient, testDockerHost } from '../helpers/docker';
import { waitFor } from '../helpers/kubernetes';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';
import { useSwarm } from '../helpers/swarm';

/**
 * A deployment on a (single-node) swarm rolls back to a revision's digest: the agent gets the
 * pinned descriptor as a redeploy, and the new generation's services run `repo@sha256:<first>`,
 * whatever the tag points at now.
 */
(registryAvailable() ? describeDocker : describe.skip)('a deployment on Docker Swarm rolls back to its digest', () => {
  const docker = testDockerClient();
  let releaseSwarm: (() => Promise<void>) | undefined;
  let agent: RunningAgent;
  let t: TestApp;
  let registry: TestRegistry;
  let repository: string;
  let deploymentId: number | undefined;
  let targetId: number | undefined;
  const made = new Set<string>();
  const digests: string[] = [];

  const pushBits = (marker: string) => pushImageBits(docker, `${repository}:v1`, marker, made, digests);

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
    // Deployment ids no other agent on this engine uses: the services labelled with it are this file's.
    await agent.app.orm.em
      .getConnection()
      .execute(`select setval(pg_get_serial_sequence('agent_deployments', 'id'), ${randomInt(1_000_000, 2_000_000_000)})`);
    t = await startTestApp({ REGISTRY_ALLOW_PRIVATE: 'true' });
    registry = await startRegistry();
    repository = `${registry.host}/team/swarm-${suffix()}`;
    expect((await t.request('POST', '/registries', { body: { name: 'Local', endpoint_url: registry.url } })).status).toBe(201);
  }, 120_000);

  afterAll(async () => {
    // Through the agent, so the services go with the deployment.
    if (deploymentId !== undefined && targetId !== undefined) {
      await t.request('DELETE', `/deployment_targets/${targetId}/deployments/${deploymentId}`);
    }
    await agent?.close();
    // The services' containers go after their services: the images can be removed once none runs them.
    await removePushedImages(docker, made);
    await releaseSwarm?.();
    await docker.close();
    await registry?.stop();
    await t?.close();
  }, 120_000);

  test('deploy, redeploy other bits under the tag, roll back: the services run the first digest', async () => {
    await pushBits('one');
    const templateId = await seedTemplate(t, { name: `swarm-${suffix()}`, images: [image({ name: 'web', source: `${repository}:v1` })] });
    targetId = (await t.request<{ id: number }>('POST', '/deployment_targets', { body: { name: 'swarm', auth_blob: agent.token } })).body
      .id;
    const created = await t.request<{ id: number }>('POST', `/deployment_targets/${targetId}/deployments`, {
      body: { template_id: templateId },
    });
    expect(created.status).toBe(200);
    const id = created.body.id;
    deploymentId = id;
    const status = async () =>
      (
        await t.request<{ status: { services: { id: string; actualState: string }[] } }>(
          'GET',
          `/deployment_targets/${targetId}/deployments/${id}`,
        )
      ).body.status.services;
    const running = () =>
      waitFor(
        'every service running',
        async () => ((await status()).every((s) => s.actualState === 'running') ? true : undefined),
        120_000,
      );
    const serviceImage = async () => (await swarmApi.inspectService(docker, (await status())[0].id))!.Spec.TaskTemplate.ContainerSpec.Image;
    await running();
    expect(await serviceImage()).toBe(`${repository}:v1`);

    await pushBits('two');
    expect((await t.request('POST', `/deployment_targets/${targetId}/deployments/${id}/redeploy`)).status).toBe(200);
    await running();

    const rolled = await t.request<{ number: number; action: string; outcome: string; images: { digest: string }[] }>(
      'POST',
      `/deployment_targets/${targetId}/deployments/${id}/rollback`,
      { body: { revision: 1 } },
    );
    expect(rolled.status).toBe(200);
    expect([rolled.body.number, rolled.body.action, rolled.body.outcome, rolled.body.images[0].digest]).toEqual([
      3,
      'rollback',
      'succeeded',
      digests[0],
    ]);
    await running();
    expect(await serviceImage()).toBe(`${repository}@${digests[0]}`);
    // The task's container runs the first bits, not what the tag points at now.
    const service = (await swarmApi.inspectService(docker, (await status())[0].id))!;
    const containers = await docker.listContainers({ labels: { 'com.docker.swarm.service.id': service.ID } });
    const container = await docker.inspectContainer(containers[0].Id);
    expect(container!.Image).toBe([...made][0]);
  }, 300_000);
});
