import { expect } from '@jest/globals';
import { spawn, type ChildProcess } from 'node:child_process';
import { rmSync } from 'node:fs';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { freePort } from '../../src/net/free-port';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { makeGitRepo, pmx } from '../helpers/git';
import { TestReceiver } from './receiver';

const ROOT = path.resolve(__dirname, '../..');
const ADMIN = 'crash-delivery-admin-token-012345';

function spawnService(env: Record<string, string>): { child: ChildProcess; output: () => string } {
  let output = '';
  const child = spawn(process.execPath, ['--require', 'tsx/cjs', 'src/main.ts'], {
    cwd: ROOT,
    env: { ...process.env, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout.on('data', (c: Buffer) => (output += c.toString()));
  child.stderr.on('data', (c: Buffer) => (output += c.toString()));
  return { child, output: () => output };
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

async function until(check: () => Promise<boolean>, what: string, output: () => string, timeoutMs = 90_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check().catch(() => false))) {
    if (Date.now() > deadline) throw new Error(`${what}: not within ${timeoutMs} ms; output:\n${output()}`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/**
 * The service is killed with SIGKILL while one delivery is in flight (the receiver holds the
 * request) and two more wait behind it (one delivery at a time); started again on the same
 * database, it delivers all three: the jobs outlived the process in PostgreSQL, and the replica
 * that held one is taken for dead once its expiry passes.
 */
describe('kill -9 with deliveries pending', () => {
  let db: TestDatabase;
  let dataDir: string;
  let receiver: TestReceiver;
  const children: ChildProcess[] = [];

  beforeAll(async () => {
    db = await createTestDatabase('crash');
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-crash-delivery-'));
    receiver = await TestReceiver.start((n) => (n === 0 ? 'hang' : { status: 200, body: 'got it' }));
  });
  afterAll(async () => {
    for (const child of children) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    await Promise.all(children.map(exited));
    await receiver.close();
    await db.drop();
    await rm(dataDir, { recursive: true, force: true });
  });

  test('after the restart every event is delivered', async () => {
    const port = await freePort();
    const url = `http://127.0.0.1:${port}`;
    const env = {
      DATABASE_URL: db.url,
      DATA_DIR: dataDir,
      PORT: String(port),
      ADMIN_TOKEN: ADMIN,
      TEMPLATE_REPO_ROOTS: os.tmpdir(),
      WEBHOOK_ALLOW_PRIVATE: 'true',
      WEBHOOK_TIMEOUT_MS: '2000',
      WEBHOOK_RETRY_DELAY_SECONDS: '1',
      WEBHOOK_RESCUE_SECONDS: '1',
      WEBHOOK_CONCURRENCY: '1',
    };
    const api = async (method: string, target: string, body?: unknown) => {
      const res = await request(`${url}${target}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: text ? (JSON.parse(text) as Record<string, unknown>) : {} };
    };
    const ready = async () => (await request(`${url}/readyz`).then((r) => (r.body.dump(), r.statusCode))) === 200;

    const first = spawnService(env);
    children.push(first.child);
    await until(ready, 'first start', first.output);
    const made = await api('POST', '/event_subscriptions', { url: receiver.url, event_types: ['template_repo.reload_failed'] });
    expect(made.status).toBe(201);
    receiver.secret = made.body.secret as string;
    const dir = makeGitRepo({ 'a.pmx': pmx('A') });
    const repo = await api('POST', '/template_repos', { name: dir });
    rmSync(dir, { recursive: true, force: true });
    for (let i = 0; i < 3; i++) expect((await api('POST', `/template_repos/${String(repo.body.id)}`)).status).toBe(502);

    // One delivery is in flight (the receiver holds it), two are queued behind it: kill -9.
    await receiver.until((got) => got.length === 1, 'the first attempt');
    expect(receiver.received).toHaveLength(1);
    first.child.kill('SIGKILL');
    await exited(first.child);

    const again = spawnService(env);
    children.push(again.child);
    await until(ready, 'restart', again.output);
    await receiver.until((got) => got.length === 4, 'the deliveries after the restart', 90_000);
    const [held, ...delivered] = receiver.received;
    expect(new Set(delivered.map((got) => got.json.id)).size).toBe(3);
    expect(delivered.map((got) => got.json.id)).toContain(held.json.id);
    expect(delivered.every((got) => got.verified)).toBe(true);
    // The log is written once the receiver has answered.
    const logged = async () =>
      (await api('GET', `/event_subscriptions/${String((made.body.subscription as { id: number }).id)}/deliveries`)).body as unknown as {
        status: string;
        response_code: number;
      }[];
    await until(async () => (await logged()).length === 3, 'the deliveries logged', again.output);
    expect((await logged()).map((d) => [d.status, d.response_code])).toEqual([
      ['delivered', 200],
      ['delivered', 200],
      ['delivered', 200],
    ]);
    again.child.kill('SIGTERM');
    await exited(again.child);
  }, 240_000);
});
