import { expect } from '@jest/globals';
import { startAgent, type RunningAgent } from '../agent/agent-harness';
import { withSwitchLock } from '../../src/history/switch-lock';
import { Revision } from '../../src/history/revision.entity';
import { image, seedTemplate, suffix } from '../apps/fixtures';
import { expectedRevision, pushBits as pushImageBits, type RevisionBody } from './fixtures';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, testDockerClient, testDockerHost } from '../helpers/docker';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';

const describeBoth = registryAvailable() ? describeDocker : describe.skip;

/**
 * A deployment's history is kept by the main service, which asks the registry what each tag is at
 * every deploy; a rollback sends the revision's descriptor with each image pinned to its digest.
 * Real agents on the docker adapter: one that takes a descriptor with a redeploy, and one that
 * speaks the original protocol (AGENT_PROTOCOL=original), which gets create-then-delete.
 */
describeBoth('deployment revisions and rollback through the agent', () => {
  const docker = testDockerClient();
  let t: TestApp;
  let registry: TestRegistry;
  let repository: string;
  let source: string;
  let templateId: number;
  const agents: RunningAgent[] = [];
  const made = new Set<string>();
  const digests: string[] = [];

  const pushBits = (marker: string) => pushImageBits(docker, source, marker, made, digests);
  const target = async (protocol: 'extended' | 'original') => {
    const agent = await startAgent({
      env: { AGENT_ADAPTER: 'docker', DOCKER_HOST: testDockerHost(), AGENT_STOP_TIMEOUT_SECONDS: '1', AGENT_PROTOCOL: protocol },
    });
    agents.push(agent);
    const res = await t.request<{ id: number }>('POST', '/deployment_targets', {
      body: { name: `${protocol}-${suffix()}`, auth_blob: agent.token },
    });
    expect(res.status).toBe(200);
    return res.body.id;
  };
  const deploy = async (targetId: number) => {
    const res = await t.request<{ id: number }>('POST', `/deployment_targets/${targetId}/deployments`, {
      body: { template_id: templateId },
    });
    expect(res.status).toBe(200);
    return res.body.id;
  };
  const revisions = async (targetId: number, id: number) =>
    (await t.request<RevisionBody[]>('GET', `/deployment_targets/${targetId}/deployments/${id}/revisions`)).body;
  const runningImage = async (targetId: number, id: number) => {
    const res = await t.request<{ status: { services: { id: string }[] } }>('GET', `/deployment_targets/${targetId}/deployments/${id}`);
    return (await docker.inspectContainer(res.body.status.services[0].id))!.Config.Image;
  };
  const revision = (fields: Partial<RevisionBody> & { number: number; digest: string; deployment_id: number }) =>
    expectedRevision(source, fields);

  beforeAll(async () => {
    t = await startTestApp({ REGISTRY_ALLOW_PRIVATE: 'true', SWITCH_HEALTH_TIMEOUT_SECONDS: '60' });
    registry = await startRegistry();
    repository = `${registry.host}/team/api-${suffix()}`;
    source = `${repository}:v1`;
    expect((await t.request('POST', '/registries', { body: { name: 'Local', endpoint_url: registry.url } })).status).toBe(201);
    templateId = await seedTemplate(t, { name: `api-${suffix()}`, images: [image({ name: 'web', source })] });
  }, 120_000);

  afterAll(async () => {
    // Through the agents, so each deployment's network goes with its containers.
    const targets = (await t.request<{ id: number }[]>('GET', '/deployment_targets')).body;
    for (const { id } of targets) {
      for (const d of (await t.request<{ id: number }[]>('GET', `/deployment_targets/${id}/deployments`)).body) {
        await t.request('DELETE', `/deployment_targets/${id}/deployments/${d.id}`);
      }
    }
    for (const agent of agents) await agent.close();
    // By image id: a container of bits whose tag moved on is listed by its image's id, not the tag.
    const containers = (await docker.listContainers({ all: true })) as unknown as { Id: string; ImageID: string }[];
    for (const c of containers.filter((c) => made.has(c.ImageID))) await docker.removeContainer(c.Id, { force: true });
    for (const id of made) await docker.removeImage(id, { force: true }).catch(() => undefined);
    await docker.close();
    await registry?.stop();
    await t.close();
  });

  test('an agent that takes a descriptor with a redeploy runs the first digest again under the same deployment', async () => {
    const targetId = await target('extended');
    await pushBits('one');
    const id = await deploy(targetId);
    expect(await revisions(targetId, id)).toEqual([revision({ number: 1, digest: digests[0], current: true, deployment_id: id })]);

    await pushBits('two');
    const redeployed = await t.request('POST', `/deployment_targets/${targetId}/deployments/${id}/redeploy`);
    expect(redeployed.status).toBe(200);
    expect(await runningImage(targetId, id)).toBe(source);

    const rolled = await t.request<RevisionBody>('POST', `/deployment_targets/${targetId}/deployments/${id}/rollback`, {
      body: { revision: 1 },
    });
    expect(rolled).toMatchObject({ status: 200 });
    const third = revision({ number: 3, action: 'rollback', rollback_of: 1, digest: digests[0], current: true, deployment_id: id });
    expect(rolled.body).toEqual(third);
    expect(await runningImage(targetId, id)).toBe(`${repository}@${digests[0]}`);
    expect(await revisions(targetId, id)).toEqual([
      third,
      revision({ number: 2, action: 'redeploy', outcome: 'rolled back', digest: digests[1], deployment_id: id }),
      revision({ number: 1, digest: digests[0], deployment_id: id }),
    ]);

    // A deployment its agent does not have: its 404, and no revision of it kept.
    expect((await t.request('POST', `/deployment_targets/${targetId}/deployments/999999/redeploy`)).status).toBe(404);
    expect(await t.app.orm.em.fork().count(Revision, { deploymentId: 999999 })).toBe(0);

    // A revision never made: 404 naming it, and nothing sent to the agent.
    expect(await t.request('POST', `/deployment_targets/${targetId}/deployments/${id}/rollback`, { body: { revision: 9 } })).toMatchObject({
      status: 404,
      body: { code: 404, message: `revision 9 of deployment ${id} of target ${targetId} not found`, fields: 'revision' },
    });
    expect((await revisions(targetId, id)).length).toBe(3);

    // While another request switches it (the lock held here, as a replica would), a rollback or a redeploy is a 409.
    await withSwitchLock(t.app.orm.em.fork(), { targetId, deploymentId: id }, async () => {
      const busy = {
        status: 409,
        body: {
          code: 409,
          message: `deployment ${id} of target ${targetId} is being redeployed or rolled back by another request: try again once it is done`,
          fields: 'id',
        },
      };
      expect(
        await t.request('POST', `/deployment_targets/${targetId}/deployments/${id}/rollback`, { body: { revision: 2 } }),
      ).toMatchObject(busy);
      expect(await t.request('POST', `/deployment_targets/${targetId}/deployments/${id}/redeploy`)).toMatchObject(busy);
    });
    expect((await revisions(targetId, id)).length).toBe(3);
  }, 180_000);

  test('an agent of the original protocol gets a new deployment with the pinned descriptor; the old one goes once it runs', async () => {
    const targetId = await target('original');
    const id = await deploy(targetId);
    const first = digests[digests.length - 1];
    await pushBits('three');
    expect((await t.request('POST', `/deployment_targets/${targetId}/deployments/${id}/redeploy`)).status).toBe(200);

    const rolled = await t.request<RevisionBody>('POST', `/deployment_targets/${targetId}/deployments/${id}/rollback`, {
      body: { revision: 1 },
    });
    expect(rolled).toMatchObject({ status: 200 });
    const replacement = rolled.body.deployment_id!;
    expect(replacement).not.toBe(id);
    expect(rolled.body).toEqual(
      revision({ number: 3, action: 'rollback', rollback_of: 1, digest: first, current: true, deployment_id: replacement }),
    );
    expect(await runningImage(targetId, replacement)).toBe(`${repository}@${first}`);
    expect((await t.request('GET', `/deployment_targets/${targetId}/deployments/${id}`)).status).toBe(404);
    // The history moved with it.
    expect((await revisions(targetId, replacement)).map((r) => [r.number, r.action, r.outcome, r.deployment_id])).toEqual([
      [3, 'rollback', 'succeeded', replacement],
      [2, 'redeploy', 'rolled back', replacement],
      [1, 'create', 'succeeded', replacement],
    ]);
  }, 180_000);
});
