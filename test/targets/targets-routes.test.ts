import { expect } from '@jest/globals';
import { rmSync } from 'node:fs';
import { startTestApp, type TestApp } from '../helpers/app';
import type { DeploymentBody, DeploymentListItem, ErrorBody, Identified, TargetBody } from '../helpers/bodies';
import { makeGitRepo, pmx } from '../helpers/git';
import { startAgent, startCountingAgent, startFakeAdapter, type RunningAgent } from '../agent/agent-harness';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

/**
 * The main service against real agents (HTTPS, Basic auth, their own databases) whose `http`
 * adapter talks to a recording test server: it stands for an external adapter (Kubernetes,
 * Marathon), which cannot run here.
 */
describe('deployment targets and deployments through interface A', () => {
  let t: TestApp;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;
  let repoDir: string;
  let templateId: number;
  let targetId: number;

  beforeAll(async () => {
    t = await startTestApp();
    adapter = await startFakeAdapter();
    agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
    repoDir = makeGitRepo({ 'wp.pmx': pmx('WordPress', { keywords: 'blog' }) });
    await t.request('POST', '/template_repos', { body: { name: repoDir } });
    templateId = (await t.request<Identified[]>('GET', '/templates')).body[0].id;
  });

  afterAll(async () => {
    await t?.close();
    await agent?.close();
    await adapter?.close();
    rmSync(repoDir, { recursive: true, force: true });
  });

  test('POST /deployment_targets decodes the token, pins the agent certificate and reads its metadata', async () => {
    const res = await t.request<TargetBody>('POST', '/deployment_targets', { body: { name: 'k8s', auth_blob: agent.token } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'k8s',
      endpoint_url: agent.url,
      auth_blob: expect.any(String),
      metadata: {
        id: res.body.id,
        agent_version: expect.any(String),
        adapter_version: '0.2.0',
        adapter_type: 'Kubernetes',
        created_at: ISO,
      },
    });
    targetId = res.body.id;
    // The password never comes back: the shown token has it masked.
    const password = Buffer.from(agent.token, 'base64').toString('utf8').split('|')[2];
    expect(Buffer.from(res.body.auth_blob, 'base64').toString('utf8').split('|')[2]).toBe('********');
    expect(JSON.stringify((await t.request('GET', '/deployment_targets')).body)).not.toContain(password);
    const rows: { sealed_auth_blob: string }[] = await t.app.orm.em
      .getConnection()
      .execute('select sealed_auth_blob from deployment_targets');
    expect(rows[0].sealed_auth_blob).not.toContain(agent.token.slice(0, 40));
    expect((await t.request('GET', `/deployment_targets/${targetId}`)).body).toEqual(res.body);
  });

  test.each([
    ['not base64 at all!', 'The token is not base64.'],
    [Buffer.from('https://a|b|c').toString('base64'), 'The token has 3 parts'],
    [Buffer.from('http://a:1|b|c|-----BEGIN CERTIFICATE-----').toString('base64'), 'https'],
  ])('a bad auth_blob is 422 naming it (%#)', async (blob, message) => {
    const res = await t.request('POST', '/deployment_targets', { body: { name: 'bad', auth_blob: blob } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 422, message: expect.stringContaining(message), fields: 'auth_blob' });
  });

  test('deploy a template with an override, list it, read its per-service state', async () => {
    const res = await t.request<DeploymentBody>('POST', `/deployment_targets/${targetId}/deployments`, {
      body: {
        template_id: String(templateId),
        override: { images: [{ name: 'web', environment: [{ variable: 'MODE', value: 'staging' }], deployment: { count: 2 } }] },
      },
    });
    expect(res.status).toBe(200);
    expect(res.headers.location).toBe(`/deployment_targets/${targetId}/deployments/${res.body.id}`);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'WordPress',
      status: {
        services: [
          { id: expect.stringMatching(/^web-svc-/), actualState: 'running 2/2' },
          { id: expect.stringMatching(/^db-svc-/), actualState: 'running 2/2' },
        ],
      },
    });
    // The agent merged the override into the template before handing it to the adapter.
    const posted = adapter.calls.find((c) => c.method === 'POST' && c.path === '/v1/services')!.body as { name: string }[];
    const web = posted.find((image) => image.name === 'web');
    expect(web).toMatchObject({ environment: [{ variable: 'MODE', value: 'staging' }], deployment: { count: 2 } });

    const list = await t.request('GET', `/deployment_targets/${targetId}/deployments`);
    expect(list.body).toEqual([
      {
        id: res.body.id,
        name: 'WordPress',
        template: templateId,
        service_ids: res.body.status.services.map((s) => ({ name: s.id })),
      },
    ]);
    const one = await t.request('GET', `/deployment_targets/${targetId}/deployments/${res.body.id}`);
    expect(one.body).toEqual(res.body);
  });

  test('redeploy and delete', async () => {
    const [deployment] = (await t.request<DeploymentListItem[]>('GET', `/deployment_targets/${targetId}/deployments`)).body;
    const redeployed = await t.request<DeploymentBody>('POST', `/deployment_targets/${targetId}/deployments/${deployment.id}/redeploy`);
    expect(redeployed.status).toBe(200);
    expect(redeployed.body.status.services.map((s) => s.id)).not.toEqual(deployment.service_ids.map((s) => s.name));
    expect((await t.request('DELETE', `/deployment_targets/${targetId}/deployments/${deployment.id}`)).status).toBe(204);
    expect((await t.request('GET', `/deployment_targets/${targetId}/deployments`)).body).toEqual([]);
  });

  test('unknown deployment and unknown target are 404', async () => {
    const res = await t.request<ErrorBody>('GET', `/deployment_targets/${targetId}/deployments/9999`);
    expect(res.status).toBe(404);
    expect(res.body.code).toBe(404);
    const target = await t.request('GET', '/deployment_targets/9999/deployments');
    expect(target.body).toEqual({ code: 404, message: 'deployment target 9999 not found', fields: 'id' });
  });

  test('a target whose agent is down is still created, with the failure shown', async () => {
    const other = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
    const token = other.token;
    await other.close();
    const res = await t.request<TargetBody>('POST', '/deployment_targets', { body: { name: 'down', auth_blob: token } });
    expect(res.status).toBe(200);
    expect(res.body.metadata).toBeNull();
    const gql = await t.graphql<{ deploymentTarget: { metadataError: string } }>(
      `{ deploymentTarget(id: ${res.body.id}) { metadataError } }`,
    );
    expect(gql.body.data.deploymentTarget.metadataError).toMatch(/deployment target "down"/);
    const deployments = await t.request<ErrorBody>('GET', `/deployment_targets/${res.body.id}/deployments`);
    expect(deployments.status).toBe(502);
    expect(deployments.body.message).toMatch(/deployment target "down"/);
    expect((await t.request('DELETE', `/deployment_targets/${res.body.id}`)).status).toBe(204);
  });

  test('refreshing metadata asks the agent again', async () => {
    const res = await t.graphql<{ refreshDeploymentTargetMetadata: unknown }>(
      `mutation { refreshDeploymentTargetMetadata(input: {id: ${targetId}}) { ... on DeploymentTarget { metadata { adapterType createdAt } metadataError } } }`,
    );
    expect(res.body.data.refreshDeploymentTargetMetadata).toEqual({
      metadata: { adapterType: 'Kubernetes', createdAt: ISO },
      metadataError: null,
    });
  });

  test('a password rotated after the target was added gives 502 naming the target, and writes nothing', async () => {
    const parts = Buffer.from(agent.token, 'base64').toString('utf8').split('|');
    parts[2] = 'wrong-password';
    const blob = Buffer.from(parts.join('|')).toString('base64');
    // Added while the token was right (a wrong one is refused at creation: target-creation.test.ts),
    // then the agent's password changed: the stored token is now the wrong one.
    const created = await t.request<TargetBody>('POST', '/deployment_targets', { body: { name: 'badpw', auth_blob: agent.token } });
    await t.app.orm.em
      .getConnection()
      .execute('update deployment_targets set sealed_auth_blob = ? where id = ?', [t.app.deps.secrets.seal(blob), created.body.id]);
    const before = adapter.calls.length;
    const res = await t.request<ErrorBody>('POST', `/deployment_targets/${created.body.id}/deployments`, {
      body: { template_id: templateId },
    });
    expect(res.status).toBe(502);
    expect(res.body.message).toMatch(/deployment target "badpw".*(401|credentials|password)/i);
    expect(adapter.calls.length).toBe(before);
    await t.request('DELETE', `/deployment_targets/${created.body.id}`);
  });

  test('one GraphQL query over every target makes one agent request per target', async () => {
    const agents = await Promise.all([1, 2, 3].map(() => startCountingAgent(adapter.url)));
    try {
      for (const [i, a] of agents.entries()) {
        const id = (await t.request<TargetBody>('POST', '/deployment_targets', { body: { name: `multi-${i}`, auth_blob: a.token } })).body
          .id;
        await t.request('POST', `/deployment_targets/${id}/deployments`, { body: { template_id: templateId } });
        await t.request('POST', `/deployment_targets/${id}/deployments`, { body: { template_id: templateId } });
      }
      agents.forEach((a) => a.requests.splice(0));
      const res = await t.graphql<{ deploymentTargets: { name: string; deployments: unknown[] }[] }>(
        '{ deploymentTargets { name deployments { id name serviceIds { name } } } }',
      );
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.deploymentTargets.filter((d) => d.name.startsWith('multi-')).map((d) => d.deployments.length)).toEqual([
        2, 2, 2,
      ]);
      expect(agents.map((a) => a.requests)).toEqual([['GET /deployments'], ['GET /deployments'], ['GET /deployments']]);

      // With status: still one request per target, not one per deployment or field.
      agents.forEach((a) => a.requests.splice(0));
      const withStatus = await t.graphql(
        '{ deploymentTargets { deployments { id status { services { orchestratorId actualState } } serviceIds { name } } } }',
      );
      expect(withStatus.body.errors).toBeUndefined();
      // The list brings each deployment's status (GET /deployments?include=status): one request.
      for (const a of agents) expect(a.requests).toEqual(['GET /deployments?include=status']);
    } finally {
      await Promise.all(agents.map((a) => a.close()));
    }
  });
});
