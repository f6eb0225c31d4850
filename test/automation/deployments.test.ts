import { expect } from '@jest/globals';
import { rmSync } from 'node:fs';
import { request } from 'undici';
import { startAgent, startFakeAdapter, type RunningAgent } from '../agent/agent-harness';
import { startTestApp, type TestApp } from '../helpers/app';
import { makeGitRepo, pmx } from '../helpers/git';
import { TestReceiver, type Received } from './receiver';
import { genericCall } from './senders';

/**
 * Deployments through hooks and events: a deploy hook redeploys on the agent; creating,
 * redeploying and failing are events; a target's agent that stops answering and answers again
 * is announced by the health poller. The agent is real; its orchestrator is the fake HTTP adapter.
 */
describe('deployment hooks and deployment events', () => {
  let t: TestApp;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;
  let receiver: TestReceiver;
  let repoDir: string;
  let targetId: number;
  let deploymentId: number;
  let adapterDown = false;

  beforeAll(async () => {
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true', TARGET_HEALTH_INTERVAL_SECONDS: '0' });
    adapter = await startFakeAdapter((call, res) => {
      if (!adapterDown) return false;
      res.writeHead(503, { 'content-type': 'application/json' }).end('{"message":"down"}');
      return true;
    });
    agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
    receiver = await TestReceiver.start();
    const sub = await t.request<{ secret: string }>('POST', '/event_subscriptions', {
      body: {
        url: receiver.url,
        event_types: ['deployment.created', 'deployment.redeployed', 'deployment.failed', 'target.unreachable', 'target.reachable'],
      },
    });
    receiver.secret = sub.body.secret;
    repoDir = makeGitRepo({ 'blog.pmx': pmx('Blog') });
    await t.request('POST', '/template_repos', { body: { name: repoDir } });
    const [template] = (await t.request<{ id: number }[]>('GET', '/templates')).body;
    targetId = (await t.request<{ id: number }>('POST', '/deployment_targets', { body: { name: 'edge', auth_blob: agent.token } })).body.id;
    const deployment = await t.request<{ id: number }>('POST', `/deployment_targets/${targetId}/deployments`, {
      body: { template_id: template.id },
    });
    expect(deployment.status).toBe(200);
    deploymentId = deployment.body.id;
  });

  afterAll(async () => {
    await receiver.close();
    await t.close();
    await agent.close();
    await adapter.close();
    rmSync(repoDir, { recursive: true, force: true });
  });

  const events = (type: string): Received[] => receiver.received.filter((r) => r.json.type === type);

  test('creating a deployment is an event', async () => {
    await receiver.until(() => events('deployment.created').length === 1, 'deployment.created');
    expect(events('deployment.created')[0].json.data).toEqual({ targetId, id: deploymentId, name: 'Blog' });
  });

  test("a deployment's hook redeploys it on its agent, as the hook in the audit log and as an event", async () => {
    const made = await t.request<{ secret: string; hook: { id: number; path: string; target_id: number; deployment_id: number } }>(
      'POST',
      `/deployment_targets/${targetId}/deployments/${deploymentId}/hooks`,
      { body: { name: 'ci' } },
    );
    expect(made.status).toBe(201);
    expect(made.body.hook).toMatchObject({ target_id: targetId, deployment_id: deploymentId });
    const redeploysBefore = adapter.calls.filter((c) => c.method === 'POST' && c.path === '/v1/services').length;
    const signed = genericCall(made.body.secret, {}, 'pipeline-7');
    const res = await request(`${t.url}${made.body.hook.path}`, { method: 'POST', headers: signed.headers, body: signed.body });
    expect(res.statusCode).toBe(202);
    await res.body.dump();
    await receiver.until(() => events('deployment.redeployed').length === 1, 'deployment.redeployed');
    expect(events('deployment.redeployed')[0].json.data).toEqual({ targetId, id: deploymentId, name: 'Blog' });
    expect(adapter.calls.filter((c) => c.method === 'POST' && c.path === '/v1/services').length).toBe(redeploysBefore + 1);
    const audit = await t.request<{
      items: { actor_kind: string; operation: string; object_type: string; object_id: string; outcome: string }[];
    }>('GET', '/audit_events?operation=redeployDeployment');
    expect(audit.body.items.map((e) => [e.actor_kind, e.operation, e.object_type, e.object_id, e.outcome])).toEqual([
      ['webhook', 'redeployDeployment', 'Deployment', `${targetId}/${deploymentId}`, 'ok'],
    ]);
  });

  test("replacing a target's agent token is recorded, the token masked", async () => {
    expect((await t.request('PUT', `/deployment_targets/${targetId}`, { body: { auth_blob: agent.token } })).status).toBe(200);
    const audit = await t.request<{
      items: { operation: string; object_type: string; object_id: string; input: unknown; outcome: string }[];
    }>('GET', '/audit_events?operation=updateDeploymentTarget');
    expect(audit.body.items.map((e) => [e.operation, e.object_type, e.object_id, e.input, e.outcome])).toEqual([
      ['updateDeploymentTarget', 'DeploymentTarget', String(targetId), { id: targetId, authBlob: '***' }, 'ok'],
    ]);
    expect(JSON.stringify(audit.body)).not.toContain(agent.token);
  });

  test('a hook for a deployment its target does not have is 404, and none is made', async () => {
    const missing = deploymentId + 1000;
    const res = await t.request('POST', `/deployment_targets/${targetId}/deployments/${missing}/hooks`, { body: { name: 'ghost' } });
    expect(res).toMatchObject({ status: 404, body: { code: 404 } });
    expect((await t.request<unknown[]>('GET', `/deployment_targets/${targetId}/deployments/${missing}/hooks`)).body).toEqual([]);
  });

  test('a deployment hook cannot switch tags, and needs the deploy scope', async () => {
    expect(
      await t.request('POST', `/deployment_targets/${targetId}/deployments/${deploymentId}/hooks`, { body: { allow_tag: true } }),
    ).toMatchObject({ status: 422, body: { code: 422, fields: 'allow_tag' } });
    const writer = await t.graphql<{ createApiToken: { token: string } }>(
      'mutation { createApiToken(input: { name: "writer", scopes: [write] }) { ... on IssuedApiToken { token } } }',
    );
    const token = writer.body.data.createApiToken.token;
    expect(await t.request('POST', `/deployment_targets/${targetId}/deployments/${deploymentId}/hooks`, { token, body: {} })).toMatchObject(
      {
        status: 403,
        body: { code: 403, message: 'a deployment hook needs the deploy scope', fields: '' },
      },
    );
    // Nor does it see the deployment's hooks.
    expect(
      (await t.request<unknown[]>('GET', `/deployment_targets/${targetId}/deployments/${deploymentId}/hooks`, { token })).body,
    ).toEqual([]);
  });

  test("a redeploy the agent fails is a deployment.failed event; a target's agent going and coming back are events", async () => {
    adapterDown = true;
    try {
      expect((await t.request('POST', `/deployment_targets/${targetId}/deployments/${deploymentId}/redeploy`)).status).toBe(502);
      await receiver.until(() => events('deployment.failed').length === 1, 'deployment.failed');
      expect(events('deployment.failed')[0].json.data).toEqual({
        targetId,
        id: deploymentId,
        action: 'redeploy',
        error: expect.stringContaining('edge'),
      });
      await t.app.deps.automation.targetHealth.check();
      await receiver.until(() => events('target.unreachable').length === 1, 'target.unreachable');
      expect(events('target.unreachable')[0].json.data).toEqual({ targetId, name: 'edge', error: expect.any(String) });
      // Still down: not news.
      await t.app.deps.automation.targetHealth.check();
    } finally {
      adapterDown = false;
    }
    await t.app.deps.automation.targetHealth.check();
    await receiver.until(() => events('target.reachable').length === 1, 'target.reachable');
    expect(events('target.reachable')[0].json.data).toEqual({ targetId, name: 'edge', error: null });
    expect(events('target.unreachable')).toHaveLength(1);
  });
});
