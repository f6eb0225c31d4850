import { expect } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { freePort } from '../../src/net/free-port';
import { agentRequest, startAgent, startFakeAdapter } from '../agent/agent-harness';
import { createTestDatabase } from '../helpers/db';
import { postmasterPid } from '../helpers/processes';

const ROOT = path.resolve(__dirname, '../..');
const ADMIN = 'one-owner-admin-token-0123456789';
const OWNED = (dataDir: string) =>
  `another process (a running service, agent or npm run token) owns the embedded PostgreSQL in ${path.join(dataDir, 'postgres')}`;

interface Program {
  child: ChildProcess;
  output(): string;
  /** The exit code, or a failure with the output when it has not exited within the safety net. */
  exit(): Promise<number | null>;
}

/** A program as its npm script runs it (`npm run dev`, `dev:agent`, `token`), in its own process, with the given environment only. */
function spawnProgram(entry: string, env: Record<string, string>, args: string[] = []): Program {
  let output = '';
  const base: NodeJS.ProcessEnv = { PATH: process.env.PATH, HOME: process.env.HOME, LOG_LEVEL: 'warn', ...env };
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', entry, ...args], {
    cwd: ROOT,
    env: base,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  return {
    child,
    output: () => output,
    exit: () =>
      Promise.race([
        exited,
        new Promise<never>((_, reject) =>
          setTimeout(() => reject(new Error(`${entry} still running after 90 s; output:\n${output}`)), 90_000).unref(),
        ),
      ]),
  };
}

/** Polls until `check` holds, the program exits, or the safety net (90 s) runs out. */
async function until(program: Program, check: () => Promise<boolean>, what: string): Promise<void> {
  const deadline = Date.now() + 90_000;
  while (!(await check().catch(() => false))) {
    if (program.child.exitCode !== null)
      throw new Error(`${what}: the program exited (${program.child.exitCode}); output:\n${program.output()}`);
    if (Date.now() > deadline) throw new Error(`${what}: not within 90 s; output:\n${program.output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * README "Security", crashes: one owner per data directory (and an agent per database). A second
 * agent, or `npm run token` that would start a second server, on a directory whose owner lives is
 * refused with a message saying so and exit status 1, and the owner goes on serving. The programs
 * run as their npm scripts run them, with their real embedded PostgreSQL.
 */
describe('one owner per data directory and per agent database', () => {
  const programs: Program[] = [];
  const dirs: string[] = [];
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;

  beforeAll(async () => {
    adapter = await startFakeAdapter();
  });

  afterAll(async () => {
    for (const program of programs) if (program.child.exitCode === null && program.child.signalCode === null) program.child.kill('SIGTERM');
    await Promise.all(programs.map((p) => p.exit().catch(() => undefined)));
    for (const dir of dirs) {
      const pid = postmasterPid(dir);
      if (pid) process.kill(pid, 'SIGQUIT');
      await rm(dir, { recursive: true, force: true });
    }
    await adapter?.close();
  });

  const tempDir = async (prefix: string) => {
    const dir = await mkdtemp(path.join(os.tmpdir(), prefix));
    dirs.push(dir);
    return dir;
  };
  const run = (entry: string, env: Record<string, string>, args?: string[]) => {
    const program = spawnProgram(entry, env, args);
    programs.push(program);
    return program;
  };

  test('a second agent on the database of a running agent (DATABASE_URL) is refused; the first serves on', async () => {
    const dataDir = await tempDir('agent-owner-');
    const database = await createTestDatabase('agent');
    const first = await startAgent({ dataDir, database, env: { ADAPTER_URL: adapter.url } });
    try {
      const env = {
        AGENT_DATA_DIR: dataDir,
        DATABASE_URL: database.url,
        AGENT_PORT: String(await freePort()),
        AGENT_ADAPTER: 'http',
        ADAPTER_URL: adapter.url,
      };
      const second = run('src/agent/main.ts', env);
      expect({ code: await second.exit(), output: second.output() }).toEqual({
        code: 1,
        output:
          'Another agent is using this database (DATABASE_URL): each agent needs a database of its own. Stop the other agent, or give this one its own database.\n',
      });
      expect((await agentRequest(first, 'GET', '/deployments')).status).toBe(200);
    } finally {
      await first.close();
      await database.drop();
    }
  }, 120_000);

  test('a second agent on the data dir of a running agent (its embedded database) is refused; the first serves on', async () => {
    const dataDir = await tempDir('agent-embedded-');
    const port = await freePort();
    const env = (agentPort: number) => ({
      AGENT_DATA_DIR: dataDir,
      AGENT_PORT: String(agentPort),
      AGENT_ADAPTER: 'http',
      ADAPTER_URL: adapter.url,
    });
    const first = run('src/agent/main.ts', env(port));
    await until(first, () => Promise.resolve(first.output().includes('----- END AGENT TOKEN -----')), 'the first agent to serve');

    const second = run('src/agent/main.ts', env(await freePort()));
    // The message comes first; the agent prints the stack under it (the service does not).
    expect({ code: await second.exit(), first: second.output().split('\n')[0] }).toEqual({
      code: 1,
      first: `agent failed to start: Error: ${OWNED(dataDir)}`,
    });

    const health = await request(`https://127.0.0.1:${port}/healthz`, {
      dispatcher: new (await import('undici')).Agent({ connect: { rejectUnauthorized: false } }),
    });
    expect({ status: health.statusCode, body: await health.body.json() }).toEqual({ status: 200, body: { status: 'ok' } });
    first.child.kill('SIGTERM');
    expect(await first.exit()).toBe(0);
  }, 180_000);

  test("npm run token on a running service's data dir goes through its server; one that would start a second is refused", async () => {
    const dataDir = await tempDir('service-owner-');
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const service = run('src/main.ts', {
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_TOKEN: ADMIN,
      DOCKER_HOST: 'unix:///nonexistent/docker.sock',
    });
    await until(service, async () => (await request(`${url}/readyz`)).statusCode === 200, 'the service to be ready');
    const postmaster = postmasterPid(dataDir);

    // README "Authentication": the running service's database, not a second server.
    const token = run('src/auth/token-cli.ts', { DATA_DIR: dataDir }, ['create', 'ci-bot', '--scope', 'write']);
    expect(await token.exit()).toBe(0);
    const issued = /\n(plt_\S+)\n/.exec(token.output())?.[1];
    expect(issued).toEqual(expect.stringMatching(/^plt_/));
    const created = await request(`${url}/registries`, {
      method: 'POST',
      headers: { authorization: `Bearer ${issued}`, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'by the cli token', endpoint_url: 'https://registry.example' }),
    });
    expect(created.statusCode).toBe(201);
    await created.body.dump();
    expect(postmasterPid(dataDir)).toBe(postmaster);

    // The owner lives but has published no server (as while it starts): the CLI would start its own.
    rmSync(path.join(dataDir, 'postgres-url'));
    const refused = run('src/auth/token-cli.ts', { DATA_DIR: dataDir }, ['list']);
    expect({ code: await refused.exit(), output: refused.output() }).toEqual({ code: 1, output: `${OWNED(dataDir)}\n` });
    expect((await request(`${url}/readyz`)).statusCode).toBe(200);
    expect(postmasterPid(dataDir)).toBe(postmaster);

    service.child.kill('SIGTERM');
    expect(await service.exit()).toBe(0);
  }, 240_000);
});
