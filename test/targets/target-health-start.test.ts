import { expect } from '@jest/globals';
import { startAgent, startFakeAdapter, type RunningAgent } from '../agent/agent-harness';
import { startTestApp, type TestApp } from '../helpers/app';
import type { AgentTarget } from '../../src/targets/agent-client';

/**
 * At start each replica opens its agents' connections with a GET /metadata each, and the health
 * poller's first round asks every agent the same: one request per agent serves both.
 */
describe("the health poller's first round and the opening of the agents' connections", () => {
  let t: TestApp;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;
  let target: AgentTarget;
  let metadataRequests = 0;

  beforeAll(async () => {
    // Rounds an hour apart: the test runs the rounds itself.
    t = await startTestApp({ TARGET_HEALTH_INTERVAL_SECONDS: '3600' });
    adapter = await startFakeAdapter();
    agent = await startAgent({
      env: { ADAPTER_URL: adapter.url },
      onRequest: (req) => void (req.method === 'GET' && req.url === '/metadata' && metadataRequests++),
    });
    const made = await t.request<{ id: number }>('POST', '/deployment_targets', { body: { name: 'edge', auth_blob: agent.token } });
    expect(made.status).toBe(200);
    target = { id: made.body.id, name: 'edge', authBlob: agent.token };
  });

  afterAll(async () => {
    await t?.close();
    await agent?.close();
    await adapter?.close();
  });

  const reachable = async () =>
    (
      await t.app.deps.orm.em
        .fork()
        .getConnection()
        .execute<{ reachable: boolean }[]>('select reachable from target_health where target_id = ?', [target.id])
    )[0]?.reachable;

  test('a start asks each agent once: the round takes the answer the opening got', async () => {
    const { agents } = t.app.deps;
    // As after a restart: no connection, then the opening and the first round at once.
    await agents.forget(target.id);
    const before = metadataRequests;
    await Promise.all([agents.open([target]), t.app.deps.automation.targetHealth.check()]);
    expect(metadataRequests - before).toBe(1);
    expect(await reachable()).toBe(true);

    // A round after the opening has finished takes its answer too.
    await agents.forget(target.id);
    await agents.open([target]);
    await t.app.deps.automation.targetHealth.check();
    expect(metadataRequests - before).toBe(2);
  });

  test('a caller that wants a fresh answer (refreshing the metadata) asks the agent', async () => {
    const before = metadataRequests;
    const refreshed = await t.request('POST', `/deployment_targets/${target.id}/metadata/refresh`);
    expect(refreshed.status).toBe(200);
    await t.app.deps.agents.metadata(target);
    expect(metadataRequests - before).toBe(2);
  });

  test('an answer older than half a round is asked again, and so is one for another token', async () => {
    const { agents } = t.app.deps;
    const before = metadataRequests;
    await agents.metadata(target);
    await new Promise((resolve) => setTimeout(resolve, 30));
    await agents.metadata(target, 10);
    expect(metadataRequests - before).toBe(2);
    await agents.metadata(target, 60_000);
    expect(metadataRequests - before).toBe(2);
    // Kept per token: another token's call is its own (this one is no token at all, so it fails).
    await expect(agents.metadata({ ...target, authBlob: `${agent.token}x` }, 60_000)).rejects.toThrow();
  });

  test("a token that does not decode leaves the target's open connections working", async () => {
    const { agents } = t.app.deps;
    await agents.metadata(target);
    await expect(agents.metadata({ ...target, authBlob: 'not a token' })).rejects.toThrow();
    await expect(agents.metadata(target)).resolves.toMatchObject({ agent: expect.any(Object) });
  });
});
