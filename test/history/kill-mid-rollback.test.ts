import { expect } from '@jest/globals';
import { mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { Client } from 'pg';
import { request } from 'undici';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { describeDocker, removeByLabel, TEST_IMAGE, testDockerClient, testDockerHost } from '../helpers/docker';
import { startServiceProcess, waitUntil, type ServiceProcess } from '../helpers/processes';

const ADMIN = 'kill-mid-rollback-admin-token-0123';

interface RevisionBody {
  number: number;
  action: string;
  outcome: string;
  error: string | null;
  current: boolean;
}

/**
 * kill -9 of the service while a rollback waits for its new containers to prove themselves (a
 * long grace period): after the restart the app is on one whole revision, the one before, and the
 * history says the rollback was interrupted and undone.
 */
describeDocker('kill -9 in the middle of a rollback', () => {
  const docker = testDockerClient();
  let db: TestDatabase;
  const services: ServiceProcess[] = [];
  let instance: string | undefined;
  let dataDir: string | undefined;

  beforeAll(async () => {
    db = await createTestDatabase('kill-rollback');
  });
  afterAll(async () => {
    for (const service of services) await service.close().catch(() => undefined);
    if (instance) await removeByLabel(`platform.instance=${instance}`);
    await docker.close();
    await db.drop();
    if (dataDir) await rm(dataDir, { recursive: true, force: true });
  });

  test('after the restart the app runs the revision it ran before, and the history says which', async () => {
    // One data dir for both runs: the same secret key.
    dataDir = await mkdtemp(path.join(os.tmpdir(), 'platform-kill-rollback-'));
    const env = {
      DATA_DIR: dataDir,
      DATABASE_URL: db.url,
      ADMIN_TOKEN: ADMIN,
      DOCKER_HOST: testDockerHost(),
      TEMPLATE_REPO_ROOTS: os.tmpdir(),
      APP_START_RESUME_AFTER_SECONDS: '1',
    };
    const first = await startServiceProcess({ ...env, SWITCH_GRACE_SECONDS: '600' });
    services.push(first);
    const api = async <T>(url: string, method: string, target: string, body?: unknown) => {
      const res = await request(`${url}${target}`, {
        method,
        headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      const text = await res.body.text();
      return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
    };
    const revisions = async (url: string) => (await api<RevisionBody[]>(url, 'GET', '/apps/1/revisions')).body;
    const compose = `services:\n  web:\n    image: ${TEST_IMAGE}\n    command: sleep 3600\n`;
    const created = await api<{ id: number }>(first.url, 'POST', '/apps', { compose_yaml: compose, name: 'crashy' });
    expect([created.status, created.body.id]).toEqual([200, 1]);
    await waitUntil(async () => (await revisions(first.url))[0]?.outcome === 'succeeded', 'the create', 60_000, first.output);
    const client = new Client({ connectionString: db.url });
    await client.connect();
    instance = (await client.query<{ id: string }>('select id from platform_instance')).rows[0].id;
    await client.end();
    const containers = () => docker.listContainers({ all: true, labels: { 'platform.instance': instance!, 'platform.app': '1' } });
    const [old] = await containers();

    // The rollback's new container runs beside the old one, set aside, for the grace period: kill -9 then.
    const rolling = api(first.url, 'POST', '/apps/1/rollback', { revision: 1 }).catch(() => undefined);
    await waitUntil(
      async () => {
        const names = (await containers()).map((c) => c.Names[0]);
        return names.some((n) => n.endsWith('-old-r2')) && names.length === 2;
      },
      'the switch with both generations',
      60_000,
      first.output,
    );
    expect((await revisions(first.url))[0]).toMatchObject({ number: 2, action: 'rollback', outcome: 'in progress' });
    await first.stop('SIGKILL');
    await rolling;

    const again = await startServiceProcess({ ...env, SWITCH_GRACE_SECONDS: '1' });
    services.push(again);
    await waitUntil(async () => (await revisions(again.url))[0]?.outcome !== 'in progress', 'the recovery', 60_000, again.output);
    expect(await revisions(again.url)).toEqual([
      {
        number: 2,
        action: 'rollback',
        rollback_of: 1,
        outcome: 'failed',
        error: 'interrupted: the service stopped during the switch, which was undone: the app runs revision 1 again',
        current: false,
        author: { kind: 'admin-token', name: 'admin' },
        created_at: expect.any(String),
        settled_at: expect.any(String),
        images: [expect.objectContaining({ name: 'web', source: TEST_IMAGE })],
      },
      expect.objectContaining({ number: 1, action: 'create', outcome: 'succeeded', current: true }),
    ]);
    const after = await containers();
    expect(after.map((c) => [c.Id, c.Names[0], c.State])).toEqual([[old.Id, old.Names[0], 'running']]);
  }, 240_000);
});
