import { execFile, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { closeSync, existsSync, openSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { DockerClient } from '../../src/engines/docker-client';

/**
 * A real Docker Swarm of three nodes on this machine, for tests of the swarm adapter across nodes:
 * three dockerd in their own network namespaces, all three managers (losing any one keeps the
 * quorum), made by .ci/swarm3-up.sh (layout and findings in .ci/swarm3-lib.sh). Each node has the
 * test image platform-test/busybox:latest; there is no routing mesh (no IPVS in this kernel), so
 * services use endpoint mode dnsrr and host-mode published ports, which answer at the node's
 * address from the host.
 *
 *   describeSwarm3('...', () => {
 *     let swarm: Swarm3;
 *     beforeAll(async () => { swarm = await useSwarm3(); }, SWARM3_SETUP_MS);
 *     afterAll(() => swarm?.release(), SWARM3_SETUP_MS);
 *     ... swarm.client(1), swarm.stopNode(3), swarm.startNode(3) ...
 *   });
 *
 * In CI, .ci/run starts the cluster (and stops it at exit); a test run that finds it down starts it
 * itself and stops it again on release (PLATFORM_SWARM3_KEEP=1 leaves it up for the next run).
 *
 * One test file at a time has the cluster, from useSwarm3 to release: jest runs files in parallel,
 * and a file that stops a node (or counts the nodes its replicas run on) fails another's.
 */
const CI = path.resolve(__dirname, '../../.ci');
export const SWARM3_DIR = process.env.PLATFORM_SWARM3_DIR || '/tmp/platform-swarm3';
const ENV_FILE = path.join(SWARM3_DIR, 'env');
/** For beforeAll/afterAll: up, when it installs packages, or down with a stuck node. */
export const SWARM3_SETUP_MS = 300_000;

export interface Swarm3 {
  /** `unix://…/nodeN/docker.sock` of nodes 1, 2 and 3 (index 0-2), each a manager. */
  hosts: string[];
  /** The nodes' addresses (198.18.213.11-13): a host-mode published port answers there. */
  addrs: string[];
  /** A client on node n's engine (1-3); close it when done. */
  client(n?: number): DockerClient;
  /** Loses node n at once (SIGKILL to its engine and containers, as when a machine loses power). */
  stopNode(n: number): Promise<void>;
  /** Starts node n again; resolves once the swarm sees it Ready. */
  startNode(n: number): Promise<void>;
  /** Starts the nodes this process stopped again; stops the cluster if this process started it. */
  release(): Promise<void>;
}

const run = promisify(execFile);

async function script(name: string, ...args: string[]): Promise<string> {
  try {
    const { stdout } = await run('bash', [path.join(CI, name), ...args], { timeout: SWARM3_SETUP_MS - 10_000, maxBuffer: 16 << 20 });
    return stdout;
  } catch (error) {
    const { stdout, stderr } = error as { stdout?: string; stderr?: string };
    throw new Error(`.ci/${name} ${args.join(' ')} failed: ${String(error)}\n${stdout ?? ''}${stderr ?? ''}`, { cause: error });
  }
}

function readEnv(): Record<string, string> {
  return Object.fromEntries(
    readFileSync(ENV_FILE, 'utf8')
      .split('\n')
      .filter((line) => line.includes('='))
      .map((line) => [line.slice(0, line.indexOf('=')), line.slice(line.indexOf('=') + 1)]),
  );
}

/**
 * Takes the cluster for this test file (waiting while another file has it), brings it up
 * (.ci/swarm3-up.sh is idempotent: ~0.5 s when it is up, and a node an earlier run left stopped
 * is started again) and waits for three Ready nodes. `release` gives it back.
 */
export async function useSwarm3(): Promise<Swarm3> {
  const unlock = await lockSwarm3();
  try {
    return await up(unlock);
  } catch (error) {
    unlock();
    throw error;
  }
}

async function up(unlock: () => void): Promise<Swarm3> {
  const startedHere = !existsSync(ENV_FILE);
  await script('swarm3-up.sh');
  const env = readEnv();
  const hosts = env.PLATFORM_SWARM3_HOSTS.split(',');
  const addrs = env.PLATFORM_SWARM3_ADDRS.split(',');
  const stopped = new Set<number>();
  const node = (n: number) => {
    if (!Number.isInteger(n) || n < 1 || n > hosts.length) throw new Error(`no node ${n}: the nodes are 1-${hosts.length}`);
    return String(n);
  };
  let released = false;
  return {
    hosts,
    addrs,
    client: (n = 1) => new DockerClient({ host: hosts[Number(node(n)) - 1] }),
    async stopNode(n) {
      stopped.add(n);
      await script('swarm3-node.sh', 'stop', node(n));
    },
    async startNode(n) {
      await script('swarm3-node.sh', 'start', node(n));
      stopped.delete(n);
    },
    async release() {
      if (released) return;
      released = true;
      try {
        if (startedHere && process.env.PLATFORM_SWARM3_KEEP !== '1') {
          await script('swarm3-down.sh');
          return;
        }
        for (const n of stopped) await script('swarm3-node.sh', 'start', node(n));
      } finally {
        unlock();
      }
    },
  };
}

/** Longer than a file holds the cluster (about a minute), within the beforeAll's SWARM3_SETUP_MS. */
const LOCK_WAIT_MS = SWARM3_SETUP_MS / 2;

/** Outside SWARM3_DIR, which swarm3-down.sh removes. */
function lockPath(): string {
  return path.join(process.env.PLATFORM_SWARM3_LOCK_DIR || os.tmpdir(), 'platform-swarm3-tests.lock');
}

/**
 * Takes the cluster for this test file (`<pid>:<random>` in an O_EXCL file), waiting while another
 * process holds it; resolves to the unlock. useSwarm3 takes it; exported for its own test.
 */
export async function lockSwarm3(): Promise<() => void> {
  const lock = lockPath();
  const me = `${process.pid}:${randomBytes(4).toString('hex')}`;
  const deadline = Date.now() + LOCK_WAIT_MS;
  let told = false;
  for (;;) {
    try {
      const fd = openSync(lock, 'wx');
      writeFileSync(fd, me);
      closeSync(fd);
      return () => {
        if (readHolder(lock) === me) rmSync(lock, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = readHolder(lock);
    if (holder === undefined) continue; // released meanwhile
    // A holder that died (a killed worker) never unlocks; nor does a file of this worker that
    // failed before its release (jest runs one file at a time in a worker). Empty: being written.
    const pid = Number(holder.split(':')[0]);
    if (holder && (pid === process.pid || !alive(pid))) {
      rmSync(lock, { force: true });
      continue;
    }
    if (Date.now() > deadline) throw new Error(`the three-node swarm is held by test process ${holder} (lock ${lock})`);
    if (!told) {
      // A file waiting in its beforeAll says why.
      console.warn(`waiting for the three-node swarm: test process ${holder} has it (lock ${lock})`);
      told = true;
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

function readHolder(lock: string): string | undefined {
  try {
    return readFileSync(lock, 'utf8').trim();
  } catch {
    return undefined;
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

let probed: { ok: boolean; reason: string } | undefined;

/** Whether this machine can run the cluster (jest decides what to skip synchronously). */
function probeSwarm3(): { ok: boolean; reason: string } {
  if (probed) return probed;
  if (existsSync(ENV_FILE)) return (probed = { ok: true, reason: '' });
  if (process.getuid?.() !== 0) return (probed = { ok: false, reason: '.ci/swarm3-up.sh needs root (network namespaces)' });
  // swarm3-up.sh installs dockerd and ip from Debian when they are missing.
  const tools = spawnSync('sh', ['-c', '{ command -v dockerd && command -v ip; } || command -v apt-get'], { encoding: 'utf8' });
  probed = tools.status === 0 ? { ok: true, reason: '' } : { ok: false, reason: 'no dockerd and ip, and no apt-get to install them' };
  return probed;
}

/**
 * `describe` for suites on the three-node swarm: skipped with the reason when this machine cannot
 * run it, failed instead when REQUIRE_DOCKER=1 (CI) or REQUIRE_SWARM3=1.
 */
export function describeSwarm3(name: string, fn: () => void): void {
  const { ok, reason } = probeSwarm3();
  if (ok) {
    describe(name, fn);
  } else if (process.env.REQUIRE_DOCKER === '1' || process.env.REQUIRE_SWARM3 === '1') {
    describe(name, () => {
      test('needs the three-node swarm (REQUIRE_DOCKER=1 or REQUIRE_SWARM3=1)', () => {
        throw new Error(`no three-node swarm: ${reason}`);
      });
    });
  } else {
    const why = `no three-node swarm: ${reason}`;
    console.warn(`skipping "${name}": ${why} (REQUIRE_DOCKER=1 or REQUIRE_SWARM3=1 makes this a failure)`);
    // eslint-disable-next-line jest/no-disabled-tests -- the one skip of a missing swarm; REQUIRE_DOCKER=1 (CI) fails instead
    describe.skip(`${name} [skipped: ${why}]`, fn);
  }
}
