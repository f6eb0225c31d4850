import { expect } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { request } from 'undici';
import { expectedRevision, pushBits as pushImageBits, type RevisionBody } from './fixtures';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, testDockerClient } from '../helpers/docker';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';
import { cleanupEngine, instanceId, suffix, waitFor } from '../apps/fixtures';
import { genericCall } from '../automation/senders';

const run = promisify(execFile);

const describeBoth = registryAvailable() ? describeDocker : describe.skip;

describeBoth('app revisions and rollback to pinned digests: a real registry, a real engine', () => {
  const docker = testDockerClient();
  let t: TestApp;
  let registry: TestRegistry;
  let instance: string;
  let appId: number;
  let source: string;
  let repository: string;
  const digests: string[] = [];
  const made = new Set<string>();

  /** Different bits under the same tag each time: the test image with another command, pushed by the engine's CLI. */
  const pushBits = (marker: string) => pushImageBits(docker, source, marker, made, digests);
  const revisions = async () => (await t.request<RevisionBody[]>('GET', `/apps/${appId}/revisions`)).body;
  const settled = (count: number) =>
    waitFor(revisions, (list) => list.length >= count && list.every((r) => r.outcome !== 'in progress'), 120_000);
  const container = async () => {
    const [summary] = await docker.listContainers({ all: true, labels: { 'platform.instance': instance, 'platform.app': String(appId) } });
    return docker.inspectContainer(summary.Id);
  };
  const revision = (fields: Partial<RevisionBody> & { number: number; digest: string }) => expectedRevision(source, fields);

  beforeAll(async () => {
    t = await startTestApp({ SWITCH_GRACE_SECONDS: '1', HOOK_RATE_LIMIT: '1000' });
    instance = await instanceId(t);
    registry = await startRegistry();
    repository = `${registry.host}/team/web-${suffix()}`;
    source = `${repository}:v1`;
  }, 120_000);

  afterAll(async () => {
    await cleanupEngine(instance);
    for (const id of made) await docker.removeImage(id, { force: true }).catch(() => undefined);
    await docker.close();
    await registry?.stop();
    await t.close();
  });

  test('a create is revision 1 with the digest the engine pulled, who made it and its outcome', async () => {
    await pushBits('first');
    // The app pulls the tag from the registry, as any other.
    await docker.removeImage(source, { force: true });
    const compose = `services:\n  web:\n    image: ${source}\n`;
    const created = await t.request<{ id: number }>('POST', '/apps', { body: { compose_yaml: compose, name: 'pinned' } });
    expect(created.status).toBe(200);
    appId = created.body.id;
    expect(await settled(1)).toEqual([revision({ number: 1, digest: digests[0], current: true })]);
  });

  test('a redeploy after other bits were pushed under the same tag runs them, and records their digest', async () => {
    await pushBits('second');
    expect(digests[1]).not.toEqual(digests[0]);
    const hook = await t.request<{ secret: string; hook: { path: string } }>('POST', `/apps/${appId}/hooks`, {
      body: { kind: 'generic', name: 'ci' },
    });
    expect(hook.status).toBe(201);
    const call = genericCall(hook.body.secret, {});
    const res = await request(`${t.url}${hook.body.hook.path}`, { method: 'POST', headers: call.headers, body: call.body });
    expect(res.statusCode).toBe(202);
    await res.body.dump();
    expect(await settled(2)).toEqual([
      revision({ number: 2, action: 'redeploy', digest: digests[1], current: true, author: { kind: 'system', name: 'platform' } }),
      revision({ number: 1, digest: digests[0] }),
    ]);
    expect((await container())!.Config.Image).toBe(source);
  });

  test('a rollback runs the first digest, not the tag as it is now, and says so in the history', async () => {
    const before = await container();
    const res = await t.request<RevisionBody>('POST', `/apps/${appId}/rollback`, { body: { revision: 1 } });
    expect(res).toMatchObject({ status: 200 });
    expect(res.body).toEqual(revision({ number: 3, action: 'rollback', rollback_of: 1, digest: digests[0], current: true }));
    const after = (await container())!;
    expect(after.Config.Image).toBe(`${repository}@${digests[0]}`);
    expect(after.Id).not.toBe(before!.Id);
    const pinned = await t.graphql<{ app: { services: { name: string; from: string; pinnedImage: string | null }[] } }>(
      'query($id: Int!) { app(id: $id) { services { name from pinnedImage } } }',
      { id: appId },
    );
    expect(pinned.body.data.app.services).toEqual([{ name: 'web', from: source, pinnedImage: `${repository}@${digests[0]}` }]);
    const { stdout } = await run('docker', ['inspect', '--format', '{{.Image}}', after.Id]);
    expect((await docker.inspectImage(`${repository}@${digests[0]}`)).Id).toBe(stdout.trim());
    // The old container is gone; one container serves.
    expect(await docker.inspectContainer(before!.Id)).toBeNull();
    expect(await revisions()).toEqual([
      revision({ number: 3, action: 'rollback', rollback_of: 1, digest: digests[0], current: true }),
      revision({ number: 2, action: 'redeploy', outcome: 'rolled back', digest: digests[1], author: { kind: 'system', name: 'platform' } }),
      revision({ number: 1, digest: digests[0] }),
    ]);
  });

  test('the diff of two revisions: per image and field, and as a unified diff of the rendered YAML', async () => {
    const res = await t.graphql<{ app: { revisionDiff: unknown } }>(
      'query($id: Int!) { app(id: $id) { revisionDiff(from: 2, to: 3) { from to images { image change fields { field old new secret } } unified } } }',
      { id: appId },
    );
    expect(res.body.errors).toBeUndefined();
    expect(res.body.data.app.revisionDiff).toEqual({
      from: 2,
      to: 3,
      images: [{ image: 'web', change: 'changed', fields: [{ field: 'digest', old: digests[1], new: digests[0], secret: false }] }],
      unified: [
        '===================================================================',
        '--- revision 2',
        '+++ revision 3',
        '@@ -3,4 +3,4 @@',
        '   - name: web',
        `     source: ${source}`,
        '     type: Default',
        `-    digest: ${digests[1]}`,
        `+    digest: ${digests[0]}`,
        '',
      ].join('\n'),
    });
  });

  test('a revision never made, or of no app, is a 404 naming it; nothing changes', async () => {
    const current = (await container())!.Id;
    expect(await t.request('POST', `/apps/${appId}/rollback`, { body: { revision: 99 } })).toMatchObject({
      status: 404,
      body: { code: 404, message: `revision 99 of app ${appId} not found`, fields: 'revision' },
    });
    expect(await t.request('POST', `/apps/999999/rollback`, { body: { revision: 1 } })).toMatchObject({
      status: 404,
      body: { code: 404, message: 'app 999999 not found', fields: 'id' },
    });
    expect((await revisions()).length).toBe(3);
    expect((await container())!.Id).toBe(current);
  });

  test('a rebuild asked for while a rollback runs waits for it: they never interleave', async () => {
    const rolling = t.request<RevisionBody>('POST', `/apps/${appId}/rollback`, { body: { revision: 2 } });
    await waitFor(revisions, (list) => list[0].number === 4 && list[0].outcome === 'in progress', 60_000);
    const rebuilt = await t.request('PUT', `/apps/${appId}`);
    const rolled = await rolling;
    expect([rolled.status, rebuilt.status]).toEqual([200, 204]);
    const [b, a] = await revisions();
    expect([a.number, a.action, a.outcome, b.number, b.action, b.outcome, b.current]).toEqual([
      4,
      'rollback',
      'succeeded',
      5,
      'redeploy',
      'succeeded',
      true,
    ]);
    expect(new Date(a.settled_at!).getTime()).toBeLessThanOrEqual(new Date(b.created_at).getTime());
    // The rebuild keeps what the rollback pinned.
    expect(b.images[0].digest).toBe(digests[1]);
    expect((await container())!.Config.Image).toBe(`${repository}@${digests[1]}`);
  });

  test('a digest neither the engine nor the registry still has is a 422 naming the image; the app keeps running', async () => {
    const current = (await container())!.Id;
    await cleanupImages([`${repository}@${digests[0]}`]);
    await registry.stop();
    const res = await t.request('POST', `/apps/${appId}/rollback`, { body: { revision: 1 } });
    expect(res).toMatchObject({
      status: 422,
      body: {
        code: 422,
        message: `image ${source} of service web is pinned to ${repository}@${digests[0]}: neither the engine nor its registry has it any more`,
        fields: 'revision',
      },
    });
    expect((await revisions()).length).toBe(5);
    const still = (await container())!;
    expect([still.Id, still.State.Running]).toEqual([current, true]);
  });

  /** Removes every tag and digest the engine has of these images, so a pull would be needed. */
  async function cleanupImages(refs: string[]): Promise<void> {
    for (const ref of refs) {
      const image = await docker.inspectImage(ref).catch(() => null);
      if (image) await docker.removeImage(image.Id, { force: true });
    }
  }
});
