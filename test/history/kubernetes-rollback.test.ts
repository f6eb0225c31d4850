import { expect } from '@jest/globals';
import type { RunningAgent } from '../agent/agent-harness';
import { startKubernetesAgent } from '../agent/kubernetes-agent';
import { image, seedTemplate, suffix } from '../apps/fixtures';
import { pushBits as pushImageBits, removePushedImages } from './fixtures';
import { startTestApp, type TestApp } from '../helpers/app';
import { testDockerClient } from '../helpers/docker';
import { describeKubernetes, startKubernetes, waitFor, type KubernetesCluster } from '../helpers/kubernetes';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';

interface DeploymentJson {
  spec: { template: { spec: { containers: { image: string }[] } } };
  status: { updatedReplicas?: number; readyReplicas?: number; replicas?: number };
}

/**
 * A deployment on the Kubernetes test cluster rolls back to a revision's digest: the agent's
 * redeploy with the pinned descriptor updates the Deployment in place, a rollout to the pinned
 * image (the cluster's kubelet runs pods on the test engine, which reaches the test registry).
 */
(registryAvailable() ? describeKubernetes : describe.skip)('a deployment on Kubernetes rolls back to its digest', () => {
  const docker = testDockerClient();
  let cluster: KubernetesCluster;
  let namespace: string;
  let agent: RunningAgent;
  let t: TestApp;
  let registry: TestRegistry;
  let repository: string;
  const made = new Set<string>();
  const digests: string[] = [];

  const pushBits = (marker: string) => pushImageBits(docker, `${repository}:v1`, marker, made, digests);

  beforeAll(async () => {
    cluster = await startKubernetes();
    namespace = await cluster.createNamespace('history');
    agent = await startKubernetesAgent(cluster, namespace);
    t = await startTestApp({ REGISTRY_ALLOW_PRIVATE: 'true' });
    registry = await startRegistry();
    repository = `${registry.host}/team/k8s-${suffix()}`;
    expect((await t.request('POST', '/registries', { body: { name: 'Local', endpoint_url: registry.url } })).status).toBe(201);
  }, 180_000);

  afterAll(async () => {
    await agent?.close();
    await cluster?.stop();
    // The namespace's pods go after it is deleted: their images can be removed once nothing runs them.
    await removePushedImages(docker, made);
    await docker.close();
    await registry?.stop();
    await t?.close();
  }, 120_000);

  test('deploy, redeploy other bits under the tag, roll back: the Deployment runs the first digest', async () => {
    await pushBits('one');
    const templateId = await seedTemplate(t, { name: `k8s-${suffix()}`, images: [image({ name: 'web', source: `${repository}:v1` })] });
    const targetId = (await t.request<{ id: number }>('POST', '/deployment_targets', { body: { name: 'k8s', auth_blob: agent.token } }))
      .body.id;
    const created = await t.request<{ id: number }>('POST', `/deployment_targets/${targetId}/deployments`, {
      body: { template_id: templateId },
    });
    expect(created.status).toBe(200);
    const id = created.body.id;
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
    await running();
    const name = (await status())[0].id;
    const podImage = async () => (await cluster.get<DeploymentJson>(namespace, 'deployment', name)).spec.template.spec.containers[0].image;
    expect(await podImage()).toBe(`${repository}:v1`);

    await pushBits('two');
    expect((await t.request('POST', `/deployment_targets/${targetId}/deployments/${id}/redeploy`)).status).toBe(200);
    await running();

    const rolled = await t.request<{
      number: number;
      action: string;
      outcome: string;
      deployment_id: number;
      images: { digest: string }[];
    }>('POST', `/deployment_targets/${targetId}/deployments/${id}/rollback`, { body: { revision: 1 } });
    expect(rolled.status).toBe(200);
    expect([rolled.body.number, rolled.body.action, rolled.body.outcome, rolled.body.deployment_id, rolled.body.images[0].digest]).toEqual([
      3,
      'rollback',
      'succeeded',
      id,
      digests[0],
    ]);
    await running();
    const after = (await status())[0].id;
    expect((await cluster.get<DeploymentJson>(namespace, 'deployment', after)).spec.template.spec.containers[0].image).toBe(
      `${repository}@${digests[0]}`,
    );
  }, 300_000);
});
