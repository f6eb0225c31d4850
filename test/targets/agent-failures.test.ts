import { expect } from '@jest/globals';
import { encodeToken } from '../../src/agent/credentials';
import { rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { agentRequest, startAgent, startFakeAdapter, startMisbehavingAgent, type RunningAgent } from '../agent/agent-harness';
import { startTestApp, type TestApp } from '../helpers/app';
import type { ErrorBody, Identified, TargetBody } from '../helpers/bodies';
import { makeGitRepo, pmx } from '../helpers/git';

// undici checks headers and body deadlines on a timer that ticks about every 500 ms, so a deadline
// fires up to a second late. A deploy's deadline is well past a read's: a deploy held until a read
// has timed out is answered long before its own deadline, however loaded the machine.
const READ_TIMEOUT_MS = 500;
const DEPLOY_TIMEOUT_MS = 6000;

function json(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

const METADATA = { agent: { version: '9.9.9' }, adapter: { version: '1.0', type: 'fake' } };

/**
 * Every way an agent can fail, through interface A: the answer is a 502 or 504 whose message names
 * the target and the cause, and the database is exactly as before (a target whose agent cannot be
 * reached is the one thing written, with the failure kept). The main service runs with short agent
 * timeouts, and a longer one for deploys.
 */
describe('agent failures through interface A', () => {
  let t: TestApp;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;
  let other: RunningAgent;
  let repoDir: string;
  let templateId: number;

  beforeAll(async () => {
    t = await startTestApp({ AGENT_TIMEOUT_MS: String(READ_TIMEOUT_MS), AGENT_DEPLOY_TIMEOUT_MS: String(DEPLOY_TIMEOUT_MS) });
    adapter = await startFakeAdapter();
    agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
    other = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
    repoDir = makeGitRepo({ 'blog.pmx': pmx('Blog') });
    await t.request('POST', '/template_repos', { body: { name: repoDir } });
    templateId = (await t.request<Identified[]>('GET', '/templates')).body[0].id;
  });

  afterAll(async () => {
    await t?.close();
    await agent?.close();
    await other?.close();
    await adapter?.close();
    if (repoDir) rmSync(repoDir, { recursive: true, force: true });
  });

  /** Every row of every table but the migrations log, to compare before and after a failure. */
  async function snapshot(): Promise<Record<string, unknown[]>> {
    const connection = t.app.orm.em.getConnection();
    const tables: { tablename: string }[] = await connection.execute(
      // The audit log and the domain events record every attempt, a failed one too: that is their purpose
      // (as a failed revision is: the revisions are compared without those below).
      "select tablename from pg_tables where schemaname = 'public' and tablename not like 'mikro_orm%' and tablename not in ('audit_events', 'domain_events', 'api_token_uses') order by tablename",
    );
    const rows: Record<string, unknown[]> = {};
    for (const { tablename } of tables) {
      const kept = tablename === 'revisions' ? " where outcome <> 'failed'" : '';
      rows[tablename] = await connection.execute(`select * from "${tablename}"${kept} order by 1`);
    }
    return rows;
  }

  /** Adds a target (its metadata may fail) and answers its id and the failure kept with it. */
  async function addTarget(name: string, token: string): Promise<{ id: number; metadataError: string | null }> {
    const created = await t.request<TargetBody>('POST', '/deployment_targets', { body: { name, auth_blob: token } });
    expect(created.status).toBe(200);
    const gql = await t.graphql<{ deploymentTarget: { metadataError: string | null } }>(
      `{ deploymentTarget(id: ${created.body.id}) { metadataError } }`,
    );
    return { id: created.body.id, metadataError: gql.body.data.deploymentTarget.metadataError };
  }

  /** Deployment create, redeploy (and delete) against the target each fail with `status` and leave the database as it was. */
  async function expectWritesFail(targetId: number, status: number, message: RegExp, withDelete = true): Promise<void> {
    const before = await snapshot();
    const attempts = [
      t.request('POST', `/deployment_targets/${targetId}/deployments`, { body: { template_id: templateId } }),
      t.request('POST', `/deployment_targets/${targetId}/deployments/1/redeploy`),
      ...(withDelete ? [t.request('DELETE', `/deployment_targets/${targetId}/deployments/1`)] : []),
    ];
    for (const res of await Promise.all(attempts)) {
      expect(res.status).toBe(status);
      expect(res.body).toEqual({ code: status, message: expect.stringMatching(message), fields: '' });
    }
    expect(await snapshot()).toEqual(before);
  }

  test("wrong certificate (another agent's PEM, after the target was added): every call is 502 naming it", async () => {
    const { username, password } = agent.app.credentials;
    const forged = encodeToken(agent.config.publicUrl, username, password, other.app.credentials.certPem);
    // A wrong certificate is refused at creation (target-creation.test.ts): the target was added
    // with the right one, then the agent behind the URL changed its certificate.
    const target = await addTarget('forged', agent.token);
    await t.app.orm.em
      .getConnection()
      .execute('update deployment_targets set sealed_auth_blob = ? where id = ?', [t.app.deps.secrets.seal(forged), target.id]);
    const before = adapter.calls.length;
    const tlsCause =
      /^The agent of deployment target "forged" at https:\/\/127\.0\.0\.1:\d+ presented a TLS certificate that does not match the one in its token \(\w+\)\.$/;

    const list = await t.request('GET', `/deployment_targets/${target.id}/deployments`);
    expect(list.status).toBe(502);
    expect(list.body).toEqual({ code: 502, message: expect.stringMatching(tlsCause), fields: '' });
    await expectWritesFail(target.id, 502, tlsCause);
    // Nothing reached the agent behind that URL.
    expect(adapter.calls.length).toBe(before);
    expect((await agentRequest(agent, 'GET', '/deployments')).body).toEqual([]);
  });

  test('agent slow (accepts, never answers): the target is created with the timeout shown; reads and writes are 504 naming it', async () => {
    const asked: string[] = [];
    const closed: Promise<unknown>[] = [];
    const slow = await startMisbehavingAgent((req, res) => {
      asked.push(`${req.method} ${req.url}`);
      closed.push(new Promise((resolve) => res.on('close', resolve)));
    });
    try {
      // Only the read timeout ends the metadata request (the test's own timeout is the safety net).
      const target = await addTarget('slow', slow.token);
      expect(target.metadataError).toBe(
        `The agent of deployment target "slow" at ${slow.url} did not answer within ${READ_TIMEOUT_MS} ms.`,
      );
      // The request reached the agent, and the service gave it up: the agent saw it close.
      expect(asked).toEqual(['GET /metadata']);
      await closed[0];

      const list = await t.request('GET', `/deployment_targets/${target.id}/deployments`);
      expect(list.body).toEqual({
        code: 504,
        message: `The agent of deployment target "slow" at ${slow.url} did not answer within ${READ_TIMEOUT_MS} ms.`,
        fields: '',
      });
      // Create and redeploy wait for the orchestrator: the longer deadline; delete is a read's.
      const before = await snapshot();
      const create = await t.request('POST', `/deployment_targets/${target.id}/deployments`, { body: { template_id: templateId } });
      expect(create.body).toEqual({
        code: 504,
        message: `The agent of deployment target "slow" at ${slow.url} did not answer within ${DEPLOY_TIMEOUT_MS} ms.`,
        fields: '',
      });
      expect(await snapshot()).toEqual(before);
      await expectWritesFail(target.id, 504, /^The agent of deployment target "slow" at .* did not answer within \d+ ms\.$/);
    } finally {
      await slow.close();
    }
  });

  test('agent answering garbage: not JSON or the wrong shape is 502 naming the target, and nothing is written', async () => {
    let mode: 'text' | 'shape' = 'text';
    const garbage = await startMisbehavingAgent((req, res) => {
      if (mode === 'text') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('not json');
        return;
      }
      if (req.url === '/metadata') return json(res, 200, METADATA);
      if (req.url === '/deployments' && req.method === 'GET') return json(res, 200, { deployments: [] });
      return json(res, 200, { id: 'one', service_ids: 'web' });
    });
    try {
      const target = await addTarget('garbage', garbage.token);
      expect(target.metadataError).toBe('The agent of deployment target "garbage" answered GET /metadata with a body that is not JSON.');
      const list = await t.request('GET', `/deployment_targets/${target.id}/deployments`);
      expect(list.body).toEqual({
        code: 502,
        message: 'The agent of deployment target "garbage" answered GET /deployments with a body that is not JSON.',
        fields: '',
      });
      // A DELETE answered 2xx needs no body: only the calls that read one can fail here.
      await expectWritesFail(
        target.id,
        502,
        /^The agent of deployment target "garbage" answered POST \/deployments\S* with a body that is not JSON\.$/,
        false,
      );

      mode = 'shape';
      const shaped = await addTarget('wrong shape', garbage.token);
      expect(shaped.metadataError).toBeNull();
      const shapedList = await t.request('GET', `/deployment_targets/${shaped.id}/deployments`);
      expect(shapedList.body).toEqual({
        code: 502,
        message:
          'The agent of deployment target "wrong shape" answered GET /deployments with an unexpected body (body: Invalid input: expected array, received object).',
        fields: '',
      });
      const before = await snapshot();
      const create = await t.request<ErrorBody>('POST', `/deployment_targets/${shaped.id}/deployments`, {
        body: { template_id: templateId },
      });
      expect(create.status).toBe(502);
      expect(create.body.message).toMatch(
        /^The agent of deployment target "wrong shape" answered POST \/deployments with an unexpected body \(id: /,
      );
      expect(await snapshot()).toEqual(before);
    } finally {
      await garbage.close();
    }
  });

  test('agent down: the target exists once, with the failure shown and no metadata; deployments are 502 naming it', async () => {
    const gone = await startMisbehavingAgent(() => undefined);
    await gone.close();
    const before = await snapshot();
    const target = await addTarget('down', gone.token);
    const refused = `The agent of deployment target "down" at ${gone.url} refused the connection: is it running?`;
    expect(target.metadataError).toBe(refused);
    const after = await snapshot();
    expect(after.deployment_targets).toEqual([
      ...before.deployment_targets,
      expect.objectContaining({ id: target.id, name: 'down', agent_version: null, metadata_error: refused }),
    ]);
    expect({ ...after, deployment_targets: [] }).toEqual({ ...before, deployment_targets: [] });
    await expectWritesFail(target.id, 502, /^The agent of deployment target "down" at .* refused the connection: is it running\?$/);
  });

  test("deploys get the longer deadline: a create held past a read's deadline succeeds, one never answered is 504", async () => {
    let creates = 0;
    /** Deploys the agent holds, answered when the test says so. */
    const held: { path: string; answer: () => void }[] = [];
    let arrived: () => void = () => undefined;
    const slowDeploys = await startMisbehavingAgent((req, res) => {
      if (req.url === '/metadata') return json(res, 200, METADATA);
      if (req.method === 'POST') {
        req.resume();
        const redeploy = /^\/deployments\/(\d+)\/redeploy$/.exec(req.url!);
        const id = redeploy ? Number(redeploy[1]) : ++creates;
        held.push({ path: req.url!, answer: () => json(res, 200, { id, name: 'Blog', template: null, service_ids: ['web-1'] }) });
        arrived();
        return;
      }
      const id = Number(req.url!.split('/')[2]);
      // A read the agent never answers: only the read deadline ends it.
      if (id === 99) return;
      return json(res, 200, { id, name: 'Blog', status: { services: [{ id: 'web-1', actualState: 'pending' }] } });
    });
    const nextDeploy = () => new Promise<void>((resolve) => (arrived = resolve));
    /** A read the agent never answers: 504 at the read deadline. */
    const readTimesOut = async () => {
      const read = await t.request<ErrorBody>('GET', `/deployment_targets/${targetId}/deployments/99`);
      expect(read.status).toBe(504);
      expect(read.body.message).toBe(
        `The agent of deployment target "pulling" at ${slowDeploys.url} did not answer within ${READ_TIMEOUT_MS} ms.`,
      );
    };
    /** Sends a deploy, holds it at the agent until a read sent after it has timed out, then lets the agent answer. */
    const outlastingARead = async (method: string, path: string, body?: unknown) => {
      const reached = nextDeploy();
      let answered = false;
      const sent = t.request(method, path, body === undefined ? {} : { body }).finally(() => (answered = true));
      await reached;
      await readTimesOut();
      expect(answered).toBe(false);
      held.shift()!.answer();
      return sent;
    };
    let targetId = 0;
    try {
      const target = await addTarget('pulling', slowDeploys.token);
      targetId = target.id;
      expect(target.metadataError).toBeNull();
      const ok = await outlastingARead('POST', `/deployment_targets/${target.id}/deployments`, { template_id: templateId });
      expect(ok.status).toBe(200);
      expect(ok.body).toEqual({ id: 1, name: 'Blog', status: { services: [{ id: 'web-1', actualState: 'pending' }] } });
      const redeployed = await outlastingARead('POST', `/deployment_targets/${target.id}/deployments/1/redeploy`);
      expect(redeployed.body).toEqual(ok.body);

      // A create the agent never answers: only the deploy deadline ends it.
      const before = await snapshot();
      const late = await t.request<ErrorBody>('POST', `/deployment_targets/${target.id}/deployments`, {
        body: { template_id: templateId },
      });
      expect(late.status).toBe(504);
      expect(late.body.message).toBe(
        `The agent of deployment target "pulling" at ${slowDeploys.url} did not answer within ${DEPLOY_TIMEOUT_MS} ms.`,
      );
      expect(held.map((h) => h.path)).toEqual(['/deployments']);
      expect(await snapshot()).toEqual(before);
    } finally {
      await slowDeploys.close();
    }
  });
});
