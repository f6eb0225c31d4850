import { expect } from '@jest/globals';
import { encodeToken, rotateCredentials } from '../../src/agent/credentials';
import { createSelfSigned } from '../../src/agent/self-signed';
import { maskedAuthBlob } from '../../src/targets/target.service';
import { startAgent, startFakeAdapter, type RunningAgent } from '../agent/agent-harness';
import { image, seedTemplate, waitFor } from '../apps/fixtures';
import { startTestApp, type TestApp } from '../helpers/app';
import type { ErrorBody, Identified, TargetBody } from '../helpers/bodies';

const quiet = { info: () => undefined };

/**
 * Replacing a target's token in place, as after `npm run agent -- rotate-credentials`: a real
 * agent (over HTTPS, Basic auth) whose password is rotated on disk; its `http` adapter talks to a
 * recording server that stands for an external orchestrator.
 */
describe("replacing a target's token (PUT /deployment_targets/{id}, updateDeploymentTarget)", () => {
  let t: TestApp;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;
  let targetId: number;
  let deployments: unknown;

  const target = async () => (await t.request<TargetBody>('GET', `/deployment_targets/${targetId}`)).body;
  const listDeployments = () => t.request('GET', `/deployment_targets/${targetId}/deployments`);
  /** The agent's token with one of its parts replaced. */
  const tokenWith = (token: string, change: { password?: string; cert?: string }) => {
    const [url, username, password, cert] = Buffer.from(token, 'base64').toString('utf8').split('|');
    return encodeToken(url, username, change.password ?? password, change.cert ?? cert);
  };

  beforeAll(async () => {
    t = await startTestApp();
    adapter = await startFakeAdapter();
    agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
    const created = await t.request<Identified>('POST', '/deployment_targets', { body: { name: 'edge', auth_blob: agent.token } });
    expect(created.status).toBe(200);
    targetId = created.body.id;
    const templateId = await seedTemplate(t, { name: 'Blog', images: [image({ name: 'web' })] });
    expect((await t.request('POST', `/deployment_targets/${targetId}/deployments`, { body: { template_id: templateId } })).status).toBe(
      200,
    );
    const listed = await listDeployments();
    expect(listed.status).toBe(200);
    deployments = listed.body;
    expect(deployments).toEqual([expect.objectContaining({ name: 'Blog' })]);
  });

  afterAll(async () => {
    await t?.close();
    await agent?.close();
    await adapter?.close();
  });

  test('a wrong password is a 422 naming auth_blob; the target keeps its token, which still works', async () => {
    const before = await target();
    const res = await t.request('PUT', `/deployment_targets/${targetId}`, {
      body: { auth_blob: tokenWith(agent.token, { password: 'not-the-password' }) },
    });
    expect(res).toMatchObject({
      status: 422,
      body: { code: 422, message: expect.stringMatching(/rejected the credentials in its token \(HTTP 401/), fields: 'auth_blob' },
    });
    expect(await target()).toEqual(before);
    expect(await listDeployments()).toMatchObject({ status: 200, body: deployments });
  });

  test('after the agent rotated its password: 502 until the new token is put in place, then 200 and the same deployments', async () => {
    const rotated = await rotateCredentials(agent.dataDir, agent.config.publicUrl, quiet);
    // The running agent reloads its login within a second: wait until it refuses the old one.
    const refused = await waitFor(listDeployments, (res) => res.status !== 200);
    expect(refused.body).toEqual({
      code: 502,
      message:
        'The agent of deployment target "edge" rejected the credentials in its token (HTTP 401: Missing or wrong credentials.); the password may have been rotated.',
      fields: '',
    });

    const before = await target();
    const res = await t.request<TargetBody>('PUT', `/deployment_targets/${targetId}`, { body: { auth_blob: rotated.token } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ ...before, auth_blob: maskedAuthBlob(rotated.token), metadata: expect.any(Object) });
    expect(await listDeployments()).toMatchObject({ status: 200, body: deployments });

    // Another certificate than the agent's: refused, and the token just stored still works.
    const other = createSelfSigned('127.0.0.1', ['127.0.0.1', 'localhost'], 30);
    const wrongCert = await t.request('PUT', `/deployment_targets/${targetId}`, {
      body: { auth_blob: tokenWith(rotated.token, { cert: other.certPem }) },
    });
    expect(wrongCert).toMatchObject({
      status: 422,
      body: { code: 422, message: expect.stringContaining('does not match the one in its token'), fields: 'auth_blob' },
    });
    expect((await target()).auth_blob).toBe(maskedAuthBlob(rotated.token));
    expect(await listDeployments()).toMatchObject({ status: 200, body: deployments });
  });

  test('GraphQL: a rename alone asks no agent; neither field is a 422 naming both; an unknown target is a 404', async () => {
    const mutation = `mutation($input: UpdateDeploymentTargetInput!) {
      updateDeploymentTarget(input: $input) { __typename ... on DeploymentTarget { databaseId name } ... on Error { code fields } }
    }`;
    const calls = adapter.calls.length;
    const renamed = await t.graphql(mutation, { input: { id: targetId, name: 'edge 2' } });
    expect(renamed.body).toEqual({
      data: { updateDeploymentTarget: { __typename: 'DeploymentTarget', databaseId: targetId, name: 'edge 2' } },
    });
    expect(adapter.calls.length).toBe(calls);
    const neither = await t.graphql(mutation, { input: { id: targetId } });
    expect(neither.body).toEqual({
      data: { updateDeploymentTarget: { __typename: 'ValidationError', code: 'VALIDATION_FAILED', fields: ['name', 'auth_blob'] } },
    });
    const unknown = await t.request<ErrorBody>('PUT', '/deployment_targets/999999', { body: { name: 'x' } });
    expect(unknown.status).toBe(404);
  });

  test('the deploy scope, as for adding a target: a write token is refused (403) and nothing changes', async () => {
    const issued = await t.graphql<{ createApiToken: { token: string } }>(
      'mutation { createApiToken(input: { name: "writer", scopes: [write] }) { ... on IssuedApiToken { token } } }',
    );
    const before = await target();
    const res = await t.request('PUT', `/deployment_targets/${targetId}`, {
      body: { name: 'renamed' },
      token: issued.body.data.createApiToken.token,
    });
    expect(res.status).toBe(403);
    expect(await target()).toEqual(before);
  });
});
