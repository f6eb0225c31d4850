import { expect } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Agent, request } from 'undici';
import { freePort } from '../../src/net/free-port';
import { decodeAuthBlob } from '../../src/targets/auth-blob';
import { startFakeAdapter } from '../agent/agent-harness';
import { isAlive, postmasterPid } from '../helpers/processes';

const ROOT = path.resolve(__dirname, '../..');
const ADMIN = 'crash-test-admin-token-0123456789';
// A safety net, not a speed bound: how fast a restart is, `npm run bench -- --only 7` measures.
const RESTART_DEADLINE_MS = 120_000;

/** The environment of a real `npm start` / `npm run agent`: embedded database, no DATABASE_URL. */
function env(extra: Record<string, string>): NodeJS.ProcessEnv {
  const base: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: 'warn', ...extra };
  delete base.DATABASE_URL;
  return base;
}

/** The command npm start runs (package.json), or npm run agent's, as its own process. */
function spawnProgram(entry: string, extra: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', entry], { cwd: ROOT, env: env(extra), stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

async function waitFor(check: () => Promise<boolean>, timeoutMs: number, what: string, output: () => string): Promise<number> {
  const started = Date.now();
  while (Date.now() - started < timeoutMs) {
    if (await check().catch(() => false)) return Date.now() - started;
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`${what} not within ${timeoutMs} ms; output:\n${output()}`);
}

const exited = (child: ChildProcess) =>
  new Promise<number | null>((resolve) =>
    child.exitCode !== null || child.signalCode !== null ? resolve(child.exitCode) : child.once('exit', (code) => resolve(code)),
  );

/**
 * After kill -9 of the service its embedded PostgreSQL kept running, and the next start
 * refused ("already running") until someone killed the orphan by hand. The real programs are
 * spawned with their real embedded databases, killed with SIGKILL, and started again on the same
 * data directories.
 */
describe('kill -9, then the same start command on the same data', () => {
  const dirs: string[] = [];
  const children: ChildProcess[] = [];
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
    await Promise.all(children.map(exited));
    // A test that failed half-way may leave its own postmaster behind: only those of our dirs.
    for (const dir of dirs) {
      const pid = postmasterPid(dir);
      if (isAlive(pid)) process.kill(pid!, 'SIGQUIT');
      await rm(dir, { recursive: true, force: true });
    }
  });

  test('the service serves again after kill -9, with every acknowledged write, and one server per data dir', async () => {
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-crash-'));
    dirs.push(dataDir);
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const extra = { DATA_DIR: dataDir, PORT: String(port), ADMIN_TOKEN: ADMIN };
    const ready = async () => (await request(`${url}/readyz`).then((r) => (r.body.dump(), r.statusCode))) === 200;
    const auth = { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' };

    const first = spawnProgram('src/main.ts', extra);
    children.push(first.child);
    await waitFor(ready, 60_000, 'first start', first.output);
    const names: string[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await request(`${url}/registries`, {
        method: 'POST',
        headers: auth,
        body: JSON.stringify({ name: `acked-${i}`, endpoint_url: `https://r${i}.example` }),
      });
      await res.body.dump();
      expect(res.statusCode).toBe(201);
      names.push(`acked-${i}`);
    }

    // A second service on the same data dir, while the first lives: refused, the first untouched.
    const second = spawnProgram('src/main.ts', { ...extra, PORT: String(await freePort()) });
    children.push(second.child);
    expect(await exited(second.child)).toBe(1);
    expect(second.output()).toContain('owns the embedded PostgreSQL');
    expect(await ready()).toBe(true);

    const orphan = postmasterPid(dataDir);
    first.child.kill('SIGKILL');
    await exited(first.child);
    expect(isAlive(orphan)).toBe(true); // the situation of the finding: the postmaster outlives it

    const again = spawnProgram('src/main.ts', extra);
    children.push(again.child);
    const tookMs = await waitFor(ready, RESTART_DEADLINE_MS, 'restart after kill -9', again.output);
    process.stdout.write(`service restart after kill -9: ${tookMs} ms\n`);
    const listed = await request(`${url}/registries`, { headers: auth });
    const body = (await listed.body.json()) as { name: string }[];
    expect(body.map((r) => r.name)).toEqual(expect.arrayContaining(names));
    expect(isAlive(orphan)).toBe(false);

    again.child.kill('SIGTERM');
    expect(await exited(again.child)).toBe(0);
    expect(postmasterPid(dataDir)).toBeUndefined();
  }, 240_000);

  test('the agent too: serving again after kill -9, with its deployments', async () => {
    const adapter = await startFakeAdapter();
    const dataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-agent-crash-'));
    dirs.push(dataDir);
    const port = await freePort();
    const extra = { AGENT_DATA_DIR: dataDir, AGENT_PORT: String(port), AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url };
    try {
      const first = spawnProgram('src/agent/main.ts', extra);
      children.push(first.child);
      const tokenFile = path.join(dataDir, 'token');
      await waitFor(
        () => Promise.resolve(existsSync(tokenFile) && first.output().includes('END AGENT TOKEN')),
        60_000,
        'agent start',
        first.output,
      );
      const blob = decodeAuthBlob(readFileSync(tokenFile, 'utf8').trim());
      const dispatcher = new Agent({ connect: { ca: blob.certificatePem } });
      const headers = {
        authorization: `Basic ${Buffer.from(`${blob.username}:${blob.password}`).toString('base64')}`,
        'content-type': 'application/json',
      };
      const created = await request(`${blob.endpointUrl}/deployments`, {
        method: 'POST',
        dispatcher,
        headers,
        body: JSON.stringify({ template: { name: 'acked', images: [{ name: 'web', source: 'busybox' }] } }),
      });
      expect(created.statusCode).toBe(200);
      const deployment = (await created.body.json()) as { id: number };

      first.child.kill('SIGKILL');
      await exited(first.child);
      const again = spawnProgram('src/agent/main.ts', extra);
      children.push(again.child);
      const healthy = async () =>
        (await request(`${blob.endpointUrl}/healthz`, { dispatcher }).then((r) => (r.body.dump(), r.statusCode))) === 200;
      const tookMs = await waitFor(healthy, RESTART_DEADLINE_MS, 'agent restart after kill -9', again.output);
      process.stdout.write(`agent restart after kill -9: ${tookMs} ms\n`);
      const listed = await request(`${blob.endpointUrl}/deployments`, { dispatcher, headers });
      expect(((await listed.body.json()) as { id: number }[]).map((d) => d.id)).toContain(deployment.id);
      again.child.kill('SIGTERM');
      expect(await exited(again.child)).toBe(0);
      await dispatcher.close();
    } finally {
      await adapter.close();
    }
  }, 240_000);
});
