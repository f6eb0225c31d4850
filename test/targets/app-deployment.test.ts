import { expect } from '@jest/globals';
import { request } from 'undici';
import { startAgent, startFakeAdapter, type RunningAgent } from '../agent/agent-harness';
import { image, seedTemplate, suffix } from '../apps/fixtures';
import { startTestApp, type TestApp } from '../helpers/app';
import type { ErrorBody, Identified, Named } from '../helpers/bodies';
import { TEST_IMAGE } from '../helpers/docker';

interface CreateDeploymentResult {
  createDeployment: { __typename: string; databaseId?: number; name?: string; code?: string; fields?: string[] };
}

const CREATE = `mutation($input: CreateDeploymentInput!) {
  createDeployment(input: $input) {
    __typename
    ... on Deployment { databaseId name }
    ... on Error { code fields }
  }
}`;

/**
 * Deploying an app: its current services go to the agent as the images of a template made from
 * it would be. A real agent (over HTTPS) whose `http` adapter talks to a recording server that
 * stands for an external orchestrator; the app's engine is a socket where nothing listens (the
 * app's definition needs none).
 */
describe('deploying an app to a target', () => {
  let t: TestApp;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;
  let targetId: number;
  let appId: number;
  const sfx = suffix();

  /** The services the agent last sent its adapter: what the deployment's descriptor held. */
  const lastSent = () => adapter.calls.filter((c) => c.method === 'POST' && c.path === '/v1/services').pop()!.body;

  beforeAll(async () => {
    t = await startTestApp({ DOCKER_HOST: `unix:///tmp/platform-no-engine-${sfx}.sock`, LEGACY_UI_PORT: '0', LEGACY_UI_SCOPE: 'deploy' });
    adapter = await startFakeAdapter();
    agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
    const target = await t.request<Identified>('POST', '/deployment_targets', { body: { name: `edge-${sfx}`, auth_blob: agent.token } });
    expect(target.status).toBe(200);
    targetId = target.body.id;
    const templateId = await seedTemplate(t, {
      name: `Blog ${sfx}`,
      images: [
        image({
          name: 'web',
          category: 'Web',
          command: 'httpd -f -p 80',
          ports: [{ host_interface: null, host_port: 8080, container_port: 80, proto: 'TCP' }],
          links: [{ service: 'db', alias: 'database' }],
          environment: [{ variable: 'MODE', value: 'blog' }],
        }),
        image({ name: 'db', category: 'DB', command: 'sleep 3600', volumes: [{ host_path: null, container_path: '/data' }] }),
      ],
    });
    const app = await t.request<Identified>('POST', `/apps?template_id=${templateId}`);
    expect(app.status).toBe(200);
    appId = app.body.id;
    // Changed after its creation: a deployment takes the app as it is now.
    const added = await t.request('POST', `/apps/${appId}/services`, { body: { name: 'cache', from: TEST_IMAGE } });
    expect(added.status).toBe(200);
  });

  afterAll(async () => {
    await t?.close();
    await agent?.close();
    await adapter?.close();
  });

  test("GraphQL createDeployment with appId sends the app's services as the images, as a template made from it would be", async () => {
    const res = await t.graphql<CreateDeploymentResult>(CREATE, { input: { targetId, appId } });
    expect(res.body).toEqual({
      data: { createDeployment: { __typename: 'Deployment', databaseId: expect.any(Number), name: `Blog ${sfx}` } },
    });
    const fromApp = lastSent();
    expect(fromApp).toEqual([
      {
        name: 'web',
        source: TEST_IMAGE,
        command: 'httpd -f -p 80',
        categories: ['Web'],
        environment: [{ variable: 'MODE', value: 'blog' }],
        links: [{ name: 'db', alias: 'database' }],
        expose: [],
        ports: [{ containerPort: 80, hostPort: 8080, protocol: 'TCP' }],
        volumes: [],
        volumesFrom: [],
        volumes_from: [],
        deployment: { count: 1 },
      },
      {
        name: 'db',
        source: TEST_IMAGE,
        command: 'sleep 3600',
        categories: ['DB'],
        environment: [],
        links: [],
        expose: [],
        ports: [],
        volumes: [{ containerPath: '/data' }],
        volumesFrom: [],
        volumes_from: [],
        deployment: { count: 1 },
      },
      {
        name: 'cache',
        source: TEST_IMAGE,
        categories: [],
        environment: [],
        links: [],
        expose: [],
        ports: [],
        volumes: [],
        volumesFrom: [],
        volumes_from: [],
        deployment: { count: 1 },
      },
    ]);
    // The agent lists it under the app's name, with no template.
    const listed = await t.request<{ id: number; name: string; template: number | null }[]>(
      'GET',
      `/deployment_targets/${targetId}/deployments`,
    );
    expect(listed.body).toEqual([
      expect.objectContaining({ id: res.body.data.createDeployment.databaseId, name: `Blog ${sfx}`, template: null }),
    ]);

    // The same images as deploying the template saved from the app.
    const saved = await t.request<Named>('POST', '/templates', { body: { app_id: appId } });
    expect(saved.status).toBe(201);
    const fromTemplate = await t.graphql<CreateDeploymentResult>(CREATE, { input: { targetId, templateId: saved.body.id } });
    expect(fromTemplate.body.data.createDeployment.__typename).toBe('Deployment');
    expect(lastSent()).toEqual(fromApp);
  });

  test('exactly one of templateId and appId: both or neither is a 422 naming them; an unknown app is a 404', async () => {
    const both = await t.graphql<CreateDeploymentResult>(CREATE, { input: { targetId, appId, templateId: 1 } });
    expect(both.body).toEqual({
      data: { createDeployment: { __typename: 'ValidationError', code: 'VALIDATION_FAILED', fields: ['template_id', 'app_id'] } },
    });
    const neither = await t.request<ErrorBody>('POST', `/deployment_targets/${targetId}/deployments`, { body: {} });
    expect(neither).toMatchObject({
      status: 422,
      body: {
        code: 422,
        message: 'give exactly one of template_id and app_id: the template or the app to deploy',
        fields: 'template_id,app_id',
      },
    });
    const unknown = await t.request<ErrorBody>('POST', `/deployment_targets/${targetId}/deployments`, { body: { app_id: 999999 } });
    expect(unknown.status).toBe(404);
  });

  test('the original UI\'s "Deploy to Target" from an app page (resource_type "App") deploys it, with its overrides', async () => {
    const res = await request(`${t.legacyUrl}/deployment_targets/${targetId}/deployments.json`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({
        resource_type: 'App',
        resource_id: String(appId),
        display_name: 'Unnamed Deployment',
        override: { images: [{ name: 'web', environment: [{ variable: 'MODE', value: 'shop' }], deployment: { count: '2' } }] },
      }),
    });
    expect(res.statusCode).toBe(201);
    await res.body.dump();
    const web = (lastSent() as { name: string }[]).find((s) => s.name === 'web');
    expect(web).toMatchObject({ environment: [{ variable: 'MODE', value: 'shop' }], deployment: { count: 2 } });
    expect((lastSent() as { name: string }[]).map((s) => s.name)).toEqual(['web', 'db', 'cache']);
  });
});
