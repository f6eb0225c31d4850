import { expect } from '@jest/globals';
import { swarmApi } from '../../src/agent/adapters/swarm-api';
import { LABEL_KEY } from '../../src/agent/adapters/engine-common';
import type { DockerClient } from '../../src/engines/docker-client';
import { agentRequest, startAgent, type AgentDeploymentBody, type RunningAgent } from '../agent/agent-harness';
import { cleanupEngine, instanceId, waitFor } from '../apps/fixtures';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';
import { describeDocker, testDockerClient, testDockerHost, TEST_IMAGE } from '../helpers/docker';
import { makeGitRepo } from '../helpers/git';
import { useSwarm } from '../helpers/swarm';

/**
 * A restart policy (no, always, unless-stopped, on-failure[:N]) on a template image and a service,
 * everywhere: .pmx files and interface A's bodies, an app's containers, compose `restart`, the
 * service's edits and GraphQL, templates saved from apps, and a deployment's containers (docker)
 * and tasks (swarm), read back from the real engine.
 */
describeDocker('restart policies, end to end', () => {
  let t: TestApp;
  let docker: DockerClient;
  const agents: RunningAgent[] = [];

  beforeAll(async () => {
    t = await startTestApp({ DOCKER_HOST: testDockerHost() });
    docker = testDockerClient();
  });
  afterAll(async () => {
    for (const agent of agents) await agent.close();
    if (t) await cleanupEngine(await instanceId(t));
    await t?.close();
    await docker?.close();
  });

  /** The HostConfig.RestartPolicy of the service's container. */
  const enginePolicy = async (appId: number, name: string) => {
    const services = (
      await t.request<(Identified & { name: string; container_status: { Id?: string } })[]>('GET', `/apps/${appId}/services`)
    ).body;
    const service = services.find((s) => s.name === name)!;
    // This service's alone: other services on the shared engine have the same ids.
    const labels = { 'platform.service': String(service.id), 'platform.instance': await instanceId(t) };
    const containers = await docker.listContainers({ all: true, labels });
    return (await docker.inspectContainer(containers[0].Id))?.HostConfig.RestartPolicy as
      { Name?: string; MaximumRetryCount?: number } | undefined;
  };

  test('a .pmx image carries one: in interface A, in the app it makes, on the engine, and in a template saved from the app', async () => {
    const images = [
      '  - name: web',
      `    source: ${TEST_IMAGE}`,
      '    command: sleep 3600',
      '    restart_policy: on-failure:3',
      '  - name: side',
      `    source: ${TEST_IMAGE}`,
      '    command: sleep 3600',
    ].join('\n');
    const repo = makeGitRepo({ 'r.pmx': `name: Restarting\ntype: Default\nimages:\n${images}\n` });
    expect((await t.request('POST', '/template_repos', { body: { name: repo } })).status).toBe(200);
    const templates = (await t.request<{ id: number; name: string; images: Record<string, unknown>[] }[]>('GET', '/templates')).body;
    const template = templates.find((x) => x.name === 'Restarting')!;
    expect(template.images.map((i) => [i.name, i.restart_policy])).toEqual([
      ['web', 'on-failure:3'],
      ['side', null],
    ]);

    const app = await t.request<Identified>('POST', '/apps', { body: { template_id: template.id } });
    expect(app.status).toBe(200);
    const services = await waitFor(
      async () =>
        (
          await t.request<{ name: string; restart_policy: string | null; sub_state: string | null }[]>(
            'GET',
            `/apps/${app.body.id}/services`,
          )
        ).body,
      (list) => list.every((s) => s.sub_state === 'running'),
      60_000,
    );
    expect(services.map((s) => [s.name, s.restart_policy])).toEqual([
      ['web', 'on-failure:3'],
      ['side', null],
    ]);
    expect(await enginePolicy(app.body.id, 'web')).toEqual({ Name: 'on-failure', MaximumRetryCount: 3 });
    expect((await enginePolicy(app.body.id, 'side'))?.Name ?? '').toBe('');

    const preview = await t.request<{ template: string }>('POST', `/apps/${app.body.id}/template`, { body: { name: 'Saved' } });
    expect(preview.body.template).toContain('restart_policy: on-failure:3');
    await t.request('DELETE', `/apps/${app.body.id}`);
  }, 120_000);

  test("compose restart becomes the service's restart policy, which an edit changes (recreating the container) and checks", async () => {
    const compose = `services:\n  web:\n    image: ${TEST_IMAGE}\n    command: sleep 3600\n    restart: unless-stopped\n`;
    const app = await t.request<Identified>('POST', '/apps', { body: { compose_yaml: compose } });
    expect(app.status).toBe(200);
    const read = () =>
      t.graphql<{ app: { services: { databaseId: number; restartPolicy: string | null; subState: string | null }[] } }>(
        'query($id: Int!) { app(id: $id) { services { databaseId restartPolicy subState } } }',
        { id: app.body.id },
      );
    const [web] = (await waitFor(read, (r) => r.body.data.app.services[0].subState === 'running', 60_000)).body.data.app.services;
    expect(web.restartPolicy).toBe('unless-stopped');
    expect(await enginePolicy(app.body.id, 'web')).toEqual({ Name: 'unless-stopped', MaximumRetryCount: 0 });

    const update = (policy: string) =>
      t.graphql<{ updateService: { __typename: string; restartPolicy?: string; message?: string; fields?: string[] } }>(
        'mutation($app: Int!, $id: Int!, $p: String) { updateService(input: { appId: $app, id: $id, restartPolicy: $p }) { __typename ... on Service { restartPolicy } ... on Error { message fields } } }',
        { app: app.body.id, id: web.databaseId, p: policy },
      );
    expect((await update('sometimes')).body.data.updateService).toEqual({
      __typename: 'ValidationError',
      message: expect.stringContaining('"sometimes" is not a restart policy (no, always, unless-stopped, on-failure[:N])'),
      fields: ['restart_policy'],
    });
    expect((await update('always')).body.data.updateService).toEqual({ __typename: 'Service', restartPolicy: 'always' });
    await waitFor(
      () => enginePolicy(app.body.id, 'web'),
      (policy) => policy?.Name === 'always',
      60_000,
    );
    const exported = await t.request<{ compose_yaml: string }>('GET', `/apps/${app.body.id}/compose_yml`);
    expect(exported.body.compose_yaml).toContain('restart: always');
    await t.request('DELETE', `/apps/${app.body.id}`);
  }, 120_000);

  test("a deployment's containers run unless-stopped by default, an image's policy or an override's otherwise", async () => {
    const agent = await startAgent({ env: { AGENT_ADAPTER: 'docker', DOCKER_HOST: testDockerHost(), AGENT_STOP_TIMEOUT_SECONDS: '1' } });
    agents.push(agent);
    const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
      body: {
        template: {
          name: 'policies',
          images: [
            { name: 'plain', source: TEST_IMAGE, command: 'sleep 3600' },
            { name: 'given', source: TEST_IMAGE, command: 'sleep 3600', restart_policy: 'no' },
            { name: 'overridden', source: TEST_IMAGE, command: 'sleep 3600', restart_policy: 'always' },
          ],
        },
        override: { images: [{ name: 'overridden', restart_policy: 'on-failure:2' }] },
      },
    });
    expect(created.status).toBe(200);
    const policies = await Promise.all(
      created.body.service_ids.map(async (id) => (await docker.inspectContainer(id))?.HostConfig.RestartPolicy),
    );
    expect(policies).toEqual([
      { Name: 'unless-stopped', MaximumRetryCount: 0 },
      // The engine's name for no is the empty one.
      { Name: '', MaximumRetryCount: 0 },
      { Name: 'on-failure', MaximumRetryCount: 2 },
    ]);
    const refused = await agentRequest(agent, 'POST', '/deployments', {
      body: { template: { name: 'bad', images: [{ name: 'x', source: TEST_IMAGE, restart_policy: 'sometimes' }] } },
    });
    expect(refused.status).toBe(422);
    expect(refused.body).toEqual(expect.objectContaining({ fields: 'template.images[0].restart_policy' }));
    expect((await agentRequest(agent, 'DELETE', `/deployments/${created.body.id}`)).status).toBe(204);
  }, 120_000);

  test("a swarm's tasks restart by the image's policy: on-failure with its attempts, any by default", async () => {
    const release = await useSwarm(docker);
    const agent = await startAgent({
      env: {
        AGENT_ADAPTER: 'swarm',
        DOCKER_HOST: testDockerHost(),
        AGENT_SWARM_PUBLISH_MODE: 'host',
        AGENT_SWARM_ENDPOINT_MODE: 'dnsrr',
        AGENT_STOP_TIMEOUT_SECONDS: '1',
      },
    });
    agents.push(agent);
    try {
      const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
        body: {
          template: {
            name: 'swarm-policies',
            images: [
              { name: 'plain', source: TEST_IMAGE, command: 'sleep 3600' },
              { name: 'given', source: TEST_IMAGE, command: 'sleep 3600', restart_policy: 'on-failure:4' },
            ],
          },
        },
      });
      expect(created.status).toBe(200);
      const specs = await Promise.all(created.body.service_ids.map(async (id) => (await swarmApi.inspectService(docker, id))!.Spec));
      expect(specs.map((spec) => spec.TaskTemplate.RestartPolicy)).toEqual([
        expect.objectContaining({ Condition: 'any' }),
        expect.objectContaining({ Condition: 'on-failure', MaxAttempts: 4 }),
      ]);
      const key = specs[0].Labels![LABEL_KEY];
      expect((await agentRequest(agent, 'DELETE', `/deployments/${created.body.id}`)).status).toBe(204);
      expect(await swarmApi.listServices(docker, { [LABEL_KEY]: key })).toEqual([]);
    } finally {
      await release();
    }
  }, 180_000);
});
