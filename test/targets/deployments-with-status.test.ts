import { expect } from '@jest/globals';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Pool } from 'undici';
import { AgentClient } from '../../src/targets/agent-client';
import { startCountingAgent, startFakeAdapter, startMisbehavingAgent } from '../agent/agent-harness';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Named, TargetBody } from '../helpers/bodies';
import { makeGitRepo, pmx } from '../helpers/git';

/**
 * `GET /deployments?include=status` is an extension of interface B: an agent that knows it puts
 * each deployment's status in the list, so a query over deployments with their status makes one
 * request per target instead of a list and then one request per deployment. Both directions of
 * compatibility are tested: this agent answers clients that do not send the parameter exactly as
 * the spec says, and the main service still gets every status from an agent that ignores it.
 */
describe('deployments with their status in one request per target', () => {
  let t: TestApp;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let templateId: number;
  beforeAll(async () => {
    adapter = await startFakeAdapter();
    t = await startTestApp();
    const repo = makeGitRepo({ 'wp.pmx': pmx('WordPress') });
    await t.request('POST', '/template_repos', { body: { name: repo } });
    templateId = (await t.request<Named[]>('GET', '/templates')).body.find((x) => x.name === 'WordPress')!.id;
  });
  afterAll(async () => {
    await t.close();
    await adapter.close();
  });

  const query = (targetId: number, fields: string) =>
    t.graphql<{ deploymentTarget: { deployments: unknown[] } }>(`{ deploymentTarget(id: ${targetId}) { deployments { ${fields} } } }`);

  test('this agent: one request when the query selects status, the spec list when it does not; old clients get the spec shape', async () => {
    const agent = await startCountingAgent(adapter.url);
    try {
      const target = (await t.request<TargetBody>('POST', '/deployment_targets', { body: { name: 'new agent', auth_blob: agent.token } }))
        .body;
      for (let i = 0; i < 2; i++) {
        expect(
          (await t.request('POST', `/deployment_targets/${target.id}/deployments`, { body: { template_id: templateId } })).status,
        ).toBe(200);
      }
      agent.requests.splice(0);
      const withStatus = await query(target.id, 'id: databaseId status { services { id: orchestratorId actualState } }');
      expect(withStatus.body.data.deploymentTarget.deployments).toEqual(
        Array(2).fill({
          id: expect.any(Number),
          status: {
            services: [
              { id: expect.any(String), actualState: 'running 2/2' },
              { id: expect.any(String), actualState: 'running 2/2' },
            ],
          },
        }),
      );
      expect(agent.requests).toEqual(['GET /deployments?include=status']);

      agent.requests.splice(0);
      const statusCalls = adapter.calls.length;
      expect((await query(target.id, 'id: databaseId name')).status).toBe(200);
      expect(agent.requests).toEqual(['GET /deployments']);
      // Without the parameter the agent does not ask its orchestrator for any status.
      expect(adapter.calls.length).toBe(statusCalls);

      // A client that predates the parameter (the main service's plain list call) gets exactly
      // the spec's Deployment objects, and the statuses in the extended list are GET /{id}'s.
      const client = new AgentClient();
      try {
        const agentTarget = { id: target.id, name: 'new agent', authBlob: agent.token };
        const plain = await client.listDeployments(agentTarget);
        const extended = await client.listDeploymentsWithStatus(agentTarget);
        expect(extended.map(({ status: _status, ...rest }) => rest)).toEqual(plain);
        for (const d of extended) expect(d.status).toEqual((await client.getDeployment(agentTarget, d.id)).status);
      } finally {
        await client.close();
      }
      agent.requests.splice(0);
      const raw = await rawList(agent.token);
      expect(raw.map((d) => Object.keys(d).sort())).toEqual(Array(2).fill(['id', 'name', 'redeployable', 'service_ids', 'template']));
    } finally {
      await agent.close();
    }
  });

  test('an agent that ignores the parameter (one that predates it): the statuses are read one by one, as before', async () => {
    // Stands for an older agent build: the spec's answers, whatever the query string says.
    const requests: string[] = [];
    const older = await startMisbehavingAgent((req: IncomingMessage, res: ServerResponse) => {
      requests.push(`${req.method} ${req.url}`);
      const path = (req.url ?? '').split('?')[0];
      const json = (body: unknown) => res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(body));
      if (path === '/metadata') return json({ agent: { version: '0.0.9' }, adapter: { version: '1', type: 'fake' } });
      if (path === '/deployments') return json([7, 8].map((id) => ({ id, name: `d${id}`, template: templateId, service_ids: [`s${id}`] })));
      const id = Number(/^\/deployments\/(\d+)$/.exec(path)?.[1]);
      return json({ id, name: `d${id}`, status: { services: [{ id: `s${id}`, actualState: 'running' }] } });
    });
    try {
      const target = (await t.request<TargetBody>('POST', '/deployment_targets', { body: { name: 'older agent', auth_blob: older.token } }))
        .body;
      requests.splice(0);
      const res = await query(target.id, 'id: databaseId status { services { id: orchestratorId actualState } }');
      expect(res.body).toEqual({
        data: {
          deploymentTarget: {
            deployments: [
              { id: 7, status: { services: [{ id: 's7', actualState: 'running' }] } },
              { id: 8, status: { services: [{ id: 's8', actualState: 'running' }] } },
            ],
          },
        },
      });
      expect(requests.sort()).toEqual(['GET /deployments/7', 'GET /deployments/8', 'GET /deployments?include=status']);
    } finally {
      await older.close();
    }
  });
});

/** GET /deployments straight to an agent, as a client that does not know `include` sends it: the raw JSON. */
async function rawList(token: string): Promise<Record<string, unknown>[]> {
  const [url, username, password, certPem] = Buffer.from(token, 'base64').toString('utf8').split('|');
  const pool = new Pool(url, { connect: { ca: certPem } });
  try {
    const res = await pool.request({
      method: 'GET',
      path: '/deployments',
      headers: { authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}` },
    });
    return (await res.body.json()) as Record<string, unknown>[];
  } finally {
    await pool.close();
  }
}
