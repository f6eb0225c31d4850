import { execFileSync, fork, spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { request } from 'undici';
import { z } from 'zod';

export const ROOT = path.resolve(__dirname, '../..');
const live = new Set<ChildProcess>();

export interface Child {
  process: ChildProcess;
  pid: number;
  /** Resolves with the exit code once the process has gone. */
  exited: Promise<number | null>;
  /** SIGTERM (the service then stops its own PostgreSQL), SIGKILL after `graceMs`. */
  stop(graceMs?: number): Promise<void>;
}

const PackageScripts = z.object({ scripts: z.object({ start: z.string() }) });

/**
 * What `npm start` runs: package.json's start script is `node <flags> <script>` (the compiled
 * dist/src/main.js with its heap limit), and the bench starts the service with the same flags, so
 * it measures what users run. Read here rather than copied, so the two cannot drift apart.
 * Like npm's prestart, it compiles dist/ first when it is missing or stale.
 */
export function npmStart(): { nodeArgs: string[]; script: string } {
  execFileSync(process.execPath, [path.join(ROOT, 'scripts/build.js'), '--if-stale'], { cwd: ROOT, stdio: 'inherit' });
  const { start } = PackageScripts.parse(JSON.parse(readFileSync(path.join(ROOT, 'package.json'), 'utf8'))).scripts;
  const words = start.trim().split(/\s+/);
  if (words[0] !== 'node' || words.length < 2) throw new Error(`package.json start is not "node <flags> <script>": ${start}`);
  return { nodeArgs: words.slice(1, -1), script: words[words.length - 1] };
}

/**
 * A TypeScript program in its own node process (node --import tsx unless `nodeArgs` says
 * otherwise; one process, so its pid is the one whose RSS we read). The load generator never
 * shares an event loop with a server.
 */
export function startTs(
  script: string,
  env: Record<string, string | undefined>,
  options: { ipc?: boolean; nodeArgs?: string[] } = {},
): Child {
  const fullEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  // undefined unsets: the embedded-database start must not inherit the harness's DATABASE_URL.
  for (const [key, value] of Object.entries(env)) if (value === undefined) delete fullEnv[key];
  const file = path.resolve(ROOT, script);
  // BENCH_PROFILE=<dir>: every child writes a V8 CPU profile there on exit (node --cpu-prof).
  const profile = process.env.BENCH_PROFILE ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(process.env.BENCH_PROFILE)] : [];
  const execArgv = [...profile, ...(options.nodeArgs ?? ['--import', 'tsx'])];
  const child = options.ipc
    ? fork(file, [], { cwd: ROOT, env: fullEnv, execArgv, stdio: ['ignore', 'ignore', 'inherit', 'ipc'] })
    : spawn(process.execPath, [...execArgv, file], { cwd: ROOT, env: fullEnv, stdio: ['ignore', 'ignore', 'inherit'] });
  live.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => live.delete(child));
  return {
    process: child,
    pid: child.pid!,
    exited,
    async stop(graceMs = 10_000) {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
      await exited;
      clearTimeout(timer);
    },
  };
}

/** Every child still running, stopped in turn (used on exit and on Ctrl-C). */
export async function stopAll(): Promise<void> {
  for (const child of [...live]) {
    if (child.exitCode !== null || child.signalCode !== null) continue;
    child.kill('SIGTERM');
    const gone = new Promise((resolve) => child.once('exit', resolve));
    const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
    await gone;
    clearTimeout(timer);
  }
}

/** Polls GET /healthz every 10 ms until 200; the time it took, in ms. */
export async function waitForHealthz(url: string, child: Child, timeoutMs = 60_000): Promise<number> {
  const started = performance.now();
  let dead = false;
  void child.exited.then(() => (dead = true));
  while (performance.now() - started < timeoutMs) {
    if (dead) throw new Error(`${url}: the process exited before /healthz answered`);
    const status = await request(`${url}/healthz`).then(
      async (res) => (await res.body.dump(), res.statusCode),
      () => 0,
    );
    if (status === 200) return performance.now() - started;
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  throw new Error(`${url}/healthz did not answer 200 within ${timeoutMs} ms`);
}

/** Resident set size of a process, in MB (Linux /proc). */
export function rssMb(pid: number): number {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = Number(/VmRSS:\s+(\d+)\s+kB/.exec(status)?.[1] ?? NaN);
  return kb / 1024;
}
