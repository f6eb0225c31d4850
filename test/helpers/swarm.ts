import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, mkdirSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { swarmApi } from '../../src/agent/adapters/swarm-api';
import type { DockerClient } from '../../src/engines/docker-client';

/**
 * Jest runs test files in parallel worker processes, and several of them need the engine to be
 * a swarm manager. Whoever finds the swarm inactive initialises it, and the swarm is left only
 * by the run's global teardown ({@link leaveTestSwarm}), once no test file runs any more:
 * - a file that left it while another still deployed services failed that one with "This node is
 *   not a swarm manager";
 * - Docker 20.10's `swarm leave` drops the embedded DNS records of every running container on the
 *   engine's local networks (they come back only when a container restarts), so leaving while
 *   another file's app containers ran made their service names stop resolving ("wget: bad
 *   address 'db'" in the app isolation test, in CI).
 * The users are counted in a state file guarded by an O_EXCL lock file, both shared by every
 * worker on the machine.
 */
const DIR = process.env.PLATFORM_TEST_SWARM_DIR ?? path.join(os.tmpdir(), 'platform-test-swarm');
const LOCK = path.join(DIR, 'lock');
const STATE = path.join(DIR, 'state.json');

interface SwarmState {
  /** The tests initialised the swarm (it was inactive), so the run's teardown leaves it. */
  initialised: boolean;
  /** Whether docker_gwbridge existed before `swarm init` made it (leave does not remove it). */
  hadGatewayBridge: boolean;
  /** `<pid>:<random>` of every current user. */
  users: string[];
}

/** Makes sure the engine is a swarm manager until the returned release function is called. */
export async function useSwarm(docker: DockerClient): Promise<() => Promise<void>> {
  const me = `${process.pid}:${randomBytes(4).toString('hex')}`;
  await locked(async () => {
    const state = readState();
    if (!(await swarmApi.inspect(docker))) {
      state.hadGatewayBridge = (await docker.inspectNetwork('docker_gwbridge')) !== null;
      await swarmApi.init(docker, '127.0.0.1');
      state.initialised = true;
    }
    state.users.push(me);
    writeState(state);
  });
  let released = false;
  return async () => {
    if (released) return;
    released = true;
    await locked(() => {
      const state = readState();
      state.users = state.users.filter((user) => user !== me);
      writeState(state);
    });
  };
}

/**
 * Leaves the swarm the tests initialised, when no user holds it any more: called by the global
 * teardown, after every test file of the run is done.
 */
export async function leaveTestSwarm(connect: () => DockerClient): Promise<void> {
  if (!existsSync(STATE)) return;
  await locked(async () => {
    const state = readState();
    if (state.users.length > 0 || !state.initialised) return;
    const docker = connect();
    try {
      await swarmApi.leave(docker).catch(() => undefined);
      if (!state.hadGatewayBridge) await docker.removeNetwork('docker_gwbridge').catch(() => undefined);
    } finally {
      await docker.close();
    }
    state.initialised = false;
    writeState(state);
  });
}

/** Users whose worker process is gone (killed mid-run) no longer hold the swarm. */
function readState(): SwarmState {
  let state: SwarmState = { initialised: false, hadGatewayBridge: true, users: [] };
  try {
    state = { ...state, ...(JSON.parse(readFileSync(STATE, 'utf8')) as Partial<SwarmState>) };
  } catch {
    // no state yet
  }
  state.users = state.users.filter((user) => alive(Number(user.split(':')[0])));
  return state;
}

function writeState(state: SwarmState): void {
  writeFileSync(STATE, JSON.stringify(state));
}

async function locked<T>(fn: () => T | Promise<T>): Promise<T> {
  mkdirSync(DIR, { recursive: true });
  const deadline = Date.now() + 120_000;
  for (;;) {
    try {
      const fd = openSync(LOCK, 'wx');
      writeFileSync(fd, String(process.pid));
      closeSync(fd);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      // A holder that died (a killed worker) never removes the lock; an empty file is one being written.
      let holder: number;
      try {
        holder = Number(readFileSync(LOCK, 'utf8').trim() || 0);
      } catch {
        continue; // released meanwhile
      }
      if (holder && !alive(holder)) {
        rmSync(LOCK, { force: true });
        continue;
      }
      if (Date.now() > deadline) throw new Error(`the swarm test lock ${LOCK} is held by process ${holder}`, { cause: error });
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
  }
  try {
    return await fn();
  } finally {
    rmSync(LOCK, { force: true });
  }
}

function alive(pid: number): boolean {
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}
