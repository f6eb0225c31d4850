import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { Agent, request } from 'undici';
import { freePort } from '../../src/net/free-port';

const ROOT = path.resolve(__dirname, '../..');

/** A program of this package (`npm start`'s or `npm run agent`'s entry) running as its own process. */
export interface ProgramProcess {
  child: ChildProcess;
  pid: number;
  /** Everything it wrote to stdout and stderr so far. */
  output: () => string;
  /** Settles when it exits. */
  exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  /** SIGTERM (or `signal`), then waits for the exit; SIGKILL after 20 s. */
  stop: (signal?: NodeJS.Signals) => Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
}

/** The environment without anything that configures the programs differently from the test. */
function cleanEnv(): NodeJS.ProcessEnv {
  return Object.fromEntries(
    Object.entries(process.env).filter(
      ([key]) =>
        !/^(AGENT_|ADAPTER_|DATABASE_URL$|DOCKER_HOST$|LOG_LEVEL$|PORT$|HOST$|DATA_DIR$|ADMIN_TOKEN$|SECRET_KEY$|METRICS_|OTEL_)/.test(key),
    ),
  );
}

/**
 * `node --require tsx/cjs <entry>`: the program in ONE process (tsx's own binary would put a second
 * node process in between), so a signal sent to `pid` reaches the program itself.
 */
export function spawnProgram(entry: 'src/main.ts' | 'src/agent/main.ts', env: Record<string, string>): ProgramProcess {
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', entry], {
    cwd: ROOT,
    env: { ...cleanEnv(), LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) resolve({ code: child.exitCode, signal: child.signalCode });
    else child.once('exit', (code, signal) => resolve({ code, signal }));
  });
  return {
    child,
    pid: child.pid!,
    output: () => output,
    exited,
    async stop(signal = 'SIGTERM') {
      if (child.exitCode === null && child.signalCode === null) child.kill(signal);
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      const result = await exited;
      clearTimeout(timer);
      return result;
    },
  };
}

/** Polls `check` until it holds; fails with `what` and the program's output after `timeoutMs`. */
export async function waitUntil(check: () => Promise<boolean>, what: string, timeoutMs = 90_000, output?: () => string): Promise<void> {
  const until = Date.now() + timeoutMs;
  for (;;) {
    if (await check().catch(() => false)) return;
    if (Date.now() > until) throw new Error(`${what}: not within ${timeoutMs} ms${output ? `; output:\n${output()}` : ''}`);
    await sleep(100);
  }
}

export interface ServiceProcess extends ProgramProcess {
  url: string;
  port: number;
  dataDir: string;
  /** Stops it (if running) and removes its data dir. */
  close: () => Promise<void>;
}

/** The main service (`npm start`'s entry) on a free loopback port, resolved once /readyz answers 200. */
export async function startServiceProcess(env: Record<string, string>, options: { port?: number } = {}): Promise<ServiceProcess> {
  const port = options.port ?? (await freePort());
  const dataDir = env.DATA_DIR ?? (await mkdtemp(path.join(tmpdir(), 'platform-process-')));
  const program = spawnProgram('src/main.ts', { PORT: String(port), HOST: '127.0.0.1', DATA_DIR: dataDir, ...env });
  const url = `http://127.0.0.1:${port}`;
  const dispatcher = new Agent({ pipelining: 0 });
  try {
    await waitUntil(
      async () => {
        if (program.child.exitCode !== null) throw new Error('exited');
        const res = await request(`${url}/readyz`, { dispatcher });
        await res.body.dump();
        return res.statusCode === 200;
      },
      `the service on port ${port} did not become ready`,
      120_000,
      program.output,
    );
  } catch (error) {
    await program.stop('SIGKILL');
    await dispatcher.close();
    throw error;
  } finally {
    await dispatcher.close().catch(() => undefined);
  }
  return {
    ...program,
    url,
    port,
    dataDir,
    async close() {
      await program.stop();
      if (!env.DATA_DIR) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

export interface AgentProcess extends ProgramProcess {
  url: string;
  token: string;
  dataDir: string;
  close: () => Promise<void>;
}

/** The agent (`npm run agent`'s entry) on a free port, resolved once it has printed its token; `AGENT_DATA_DIR` given is kept. */
export async function startAgentProcess(env: Record<string, string>): Promise<AgentProcess> {
  const port = await freePort();
  const dataDir = env.AGENT_DATA_DIR ?? (await mkdtemp(path.join(tmpdir(), 'agent-process-')));
  const program = spawnProgram('src/agent/main.ts', { AGENT_PORT: String(port), AGENT_DATA_DIR: dataDir, ...env });
  let token: string | undefined;
  try {
    await waitUntil(
      () => {
        if (program.child.exitCode !== null) throw new Error('exited');
        token = /----- BEGIN AGENT TOKEN -----\n(\S+)\n----- END AGENT TOKEN -----/.exec(program.output())?.[1];
        return Promise.resolve(token !== undefined);
      },
      'the agent did not print its token',
      120_000,
      program.output,
    );
  } catch (error) {
    await program.stop('SIGKILL');
    throw error;
  }
  return {
    ...program,
    url: `https://127.0.0.1:${port}`,
    token: token!,
    dataDir,
    async close() {
      await program.stop();
      if (!env.AGENT_DATA_DIR) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/** The pid the embedded PostgreSQL of `dataDir` wrote, if its pid file is there (it may have died since). */
export function postmasterPid(dataDir: string): number | undefined {
  const file = path.join(dataDir, 'postgres', 'postmaster.pid');
  return existsSync(file) ? Number(readFileSync(file, 'utf8').split('\n')[0]) : undefined;
}

export function isAlive(pid: number | undefined): boolean {
  if (!pid) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Runs `fn` where a Debian program the tests need is installed; `requireEnv`=1 (CI) makes its
 * absence a failing test, elsewhere the block is skipped with a warning.
 */
export function describeWithProgram(
  program: { path: string; versionArg: string; requireEnv: string; debianPackage: string },
  name: string,
  fn: () => void,
): void {
  const found = spawnSync(program.path, [program.versionArg], { encoding: 'utf8' }).status === 0;
  if (found) return describe(name, fn);
  if (process.env[program.requireEnv] === '1') {
    return describe(name, () => {
      test(`needs Debian ${program.debianPackage} (${program.requireEnv}=1)`, () => {
        throw new Error(`${program.path} is not installed (apt-get install ${program.debianPackage})`);
      });
    });
  }
  console.warn(`skipping "${name}": ${program.path} is not installed (${program.requireEnv}=1 makes this a failure)`);
  // eslint-disable-next-line jest/no-disabled-tests -- the one skip of a missing program; its REQUIRE_* variable (CI) fails instead
  describe.skip(`${name} [skipped: no ${program.debianPackage}]`, fn);
}
