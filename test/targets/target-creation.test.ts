import { expect } from '@jest/globals';
import { encodeToken } from '../../src/agent/credentials';
import { createSelfSigned } from '../../src/agent/self-signed';
import { freePort } from '../../src/net/free-port';
import { startTestApp, type TestApp } from '../helpers/app';
import type { TargetBody } from '../helpers/bodies';
import { startAgent, startFakeAdapter, type RunningAgent } from '../agent/agent-harness';

/**
 * Adding a target asks its agent (a real one, over HTTPS with Basic auth). An agent that answers
 * "wrong credentials" or presents another certificate has said the token is wrong: refused, 422
 * naming auth_blob, nothing stored. One that cannot be reached is stored pending, as before.
 * The agent's adapter is a recording test server: it stands for an external orchestrator.
 */
describe('adding a deployment target', () => {
  let t: TestApp;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;
  let parts: { url: string; username: string; password: string; cert: string };

  beforeAll(async () => {
    t = await startTestApp();
    adapter = await startFakeAdapter();
    agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
    const [url, username, password, cert] = Buffer.from(agent.token, 'base64').toString('utf8').split('|');
    parts = { url, username, password, cert };
  });

  afterAll(async () => {
    await t?.close();
    await agent?.close();
    await adapter?.close();
  });

  const count = async () => ((await t.request('GET', '/deployment_targets')).body as unknown[]).length;

  test("a wrong password is refused with the agent's reason, and nothing is stored", async () => {
    const before = await count();
    const token = encodeToken(parts.url, parts.username, `${parts.password}-rotated`, parts.cert);
    const res = await t.request('POST', '/deployment_targets', { body: { name: 'wrong password', auth_blob: token } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 422,
      message: expect.stringMatching(/rejected the credentials in its token \(HTTP 401/),
      fields: 'auth_blob',
    });
    expect(await count()).toBe(before);
  });

  test("a certificate other than the agent's is refused, and nothing is stored", async () => {
    const before = await count();
    const other = createSelfSigned('127.0.0.1', ['127.0.0.1', 'localhost'], 30);
    const token = encodeToken(parts.url, parts.username, parts.password, other.certPem);
    const res = await t.request('POST', '/deployment_targets', { body: { name: 'wrong cert', auth_blob: token } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({
      code: 422,
      message: expect.stringContaining('presented a TLS certificate that does not match the one in its token'),
      fields: 'auth_blob',
    });
    expect(await count()).toBe(before);
  });

  test('an agent that cannot be reached is stored, pending, with no metadata', async () => {
    const port = await freePort();
    const token = encodeToken(`https://127.0.0.1:${port}`, parts.username, parts.password, parts.cert);
    const res = await t.request<TargetBody>('POST', '/deployment_targets', { body: { name: 'asleep', auth_blob: token } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      id: expect.any(Number),
      name: 'asleep',
      endpoint_url: `https://127.0.0.1:${port}`,
      auth_blob: expect.any(String),
      metadata: null,
    });
    expect(res.headers.location).toBe(`/deployment_targets/${res.body.id}`);
    const read = await t.graphql<{ deploymentTarget: { metadataError: string } }>(
      `{ deploymentTarget(id: ${res.body.id}) { metadataError } }`,
    );
    expect(read.body.data.deploymentTarget.metadataError).toMatch(/refused the connection/);
    // Refreshing asks again and answers the failure (the UI shows a warning on a 5xx).
    const refresh = await t.request('POST', `/deployment_targets/${res.body.id}/metadata/refresh.json`, { body: {} });
    expect(refresh.status).toBe(502);
    expect(refresh.body).toEqual({ code: 502, message: expect.stringContaining('refused the connection'), fields: '' });
  });

  test("the right token is accepted, and the metadata refresh answers the agent's versions", async () => {
    const res = await t.request<TargetBody>('POST', '/deployment_targets.json', { body: { name: 'good', auth_blob: agent.token } });
    expect(res.status).toBe(200);
    expect(res.headers.location).toBe(`/deployment_targets/${res.body.id}`);
    const refresh = await t.request('POST', `/deployment_targets/${res.body.id}/metadata/refresh.json`, { body: {} });
    expect(refresh.status).toBe(200);
    expect(refresh.body).toEqual({
      metadata: {
        id: res.body.id,
        agent_version: expect.any(String),
        adapter_version: '0.2.0',
        adapter_type: 'Kubernetes',
        created_at: expect.any(String),
      },
    });
  });
});
