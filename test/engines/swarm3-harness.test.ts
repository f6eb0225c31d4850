import { expect } from '@jest/globals';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { lockSwarm3 } from '../helpers/swarm3';

const ROOT = path.resolve(__dirname, '../..');

/**
 * Jest runs test files in parallel, and the three-node swarm's tests stop nodes and count the
 * nodes replicas run on: one file at a time has it (lockSwarm3, taken by useSwarm3). Here on a
 * lock of its own, so the real cluster's users are not held up; no cluster is needed.
 */
describe('the three-node swarm’s test lock', () => {
  let dir: string;
  const saved = process.env.PLATFORM_SWARM3_LOCK_DIR;

  beforeEach(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'swarm3-lock-'));
    process.env.PLATFORM_SWARM3_LOCK_DIR = dir;
  });
  afterEach(() => {
    if (saved === undefined) delete process.env.PLATFORM_SWARM3_LOCK_DIR;
    else process.env.PLATFORM_SWARM3_LOCK_DIR = saved;
    rmSync(dir, { recursive: true, force: true });
  });

  test('another process waits until the holder releases it', async () => {
    const unlock = await lockSwarm3();
    const script = path.join(dir, 'take.ts');
    writeFileSync(
      script,
      `import { lockSwarm3 } from ${JSON.stringify(path.join(ROOT, 'test/helpers/swarm3'))};\n` +
        `void lockSwarm3().then((unlock) => { console.log('held'); unlock(); });\n`,
    );
    const events: string[] = [];
    const child = spawn(path.join(ROOT, 'node_modules/.bin/tsx'), [script], { cwd: ROOT, env: { ...process.env } });
    let output = '';
    const seen = (what: string, chunk: Buffer) => {
      output += chunk.toString();
      if (what === 'waiting' && /waiting for the three-node swarm/.test(chunk.toString())) events.push('waiting');
      if (what === 'held' && /held/.test(chunk.toString())) events.push('held');
    };
    child.stderr.on('data', (chunk: Buffer) => seen('waiting', chunk));
    child.stdout.on('data', (chunk: Buffer) => seen('held', chunk));
    const exited = new Promise<number | null>((resolve) => child.on('exit', resolve));
    try {
      // The child says once that it waits; until then it has either not got there or (without
      // the lock) taken the cluster at once.
      await new Promise<void>((resolve, reject) => {
        const check = setInterval(() => {
          if (events.length > 0 || child.exitCode !== null) {
            clearInterval(check);
            resolve();
          }
        }, 50);
        child.on('error', reject);
      });
      expect(events).toEqual(['waiting']);
      events.push('released');
      unlock();
      expect(await exited).toBe(0);
      expect(events).toEqual(['waiting', 'released', 'held']);
      expect(existsSync(path.join(dir, 'platform-swarm3-tests.lock'))).toBe(false);
    } finally {
      unlock();
      child.kill();
      if (child.exitCode === null) console.error(output);
    }
  }, 60_000);

  test('a lock whose holder died is taken', async () => {
    const dead = spawnSync('true').pid;
    writeFileSync(path.join(dir, 'platform-swarm3-tests.lock'), `${dead}:00000000`);
    const unlock = await lockSwarm3();
    unlock();
    expect(existsSync(path.join(dir, 'platform-swarm3-tests.lock'))).toBe(false);
  });
});
