import { expect } from '@jest/globals';
import { request } from 'undici';
import { freePort } from '../../src/net/free-port';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, testDockerClient } from '../helpers/docker';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';
import { cleanupEngine, instanceId, waitFor } from '../apps/fixtures';
import { genericCall, githubPush, gitlabPush } from './senders';

interface Hook {
  id: number;
  kind: string;
  path: string;
  url: string;
  app_id: number | null;
  allow_tag: boolean;
  calls: { id: number; delivery_id: string | null; event: string | null; status: string; message: string | null }[];
}

const describeBoth = registryAvailable() ? describeDocker : describe.skip;

describeBoth('deploy hooks on an app: real senders, a real registry, a real engine', () => {
  let t: TestApp;
  let registry: TestRegistry;
  let host: string;
  let appId: number;
  let instance: string;
  const hooks: Record<string, { hook: Hook; secret: string }> = {};
  const pulled = new Set<string>();

  const call = async (path: string, body: string | Buffer, headers: Record<string, string>) => {
    const res = await request(`${t.url}${path}`, { method: 'POST', headers, body });
    const text = await res.body.text();
    return { status: res.statusCode, headers: res.headers, body: text ? (JSON.parse(text) as unknown) : undefined };
  };
  const hook = async (id: number) => (await t.request<Hook>('GET', `/deploy_hooks/${id}`)).body;
  const calls = async (id: number, done: (calls: Hook['calls']) => boolean) =>
    (
      await waitFor(
        () => hook(id),
        (h) => done(h.calls),
        60_000,
      )
    ).calls;
  const serviceImage = async () => (await t.request<{ from: string }[]>('GET', `/apps/${appId}/services`)).body.map((s) => s.from);

  beforeAll(async () => {
    t = await startTestApp({ HOOK_RATE_LIMIT: '1000' });
    instance = await instanceId(t);
    // The registry must be named by the app and the hook before it runs: its port is chosen first.
    const port = await freePort();
    host = `127.0.0.1:${port}`;
    const app = await t.request<{ id: number }>('POST', '/apps', { body: { image: `${host}/team/web:v1`, name: 'hooked' } });
    expect(app.status).toBe(200);
    appId = app.body.id;
    for (const [kind, allowTag] of [
      ['generic', true],
      ['github', false],
      ['gitlab', false],
      ['registry', true],
    ] as const) {
      const made = await t.request<{ secret: string; hook: Hook }>('POST', `/apps/${appId}/hooks`, {
        body: { kind, allow_tag: allowTag, name: `${kind} sender` },
      });
      expect(made.status).toBe(201);
      expect(made.body.hook).toMatchObject({
        kind,
        app_id: appId,
        allow_tag: allowTag,
        calls: [],
        path: expect.stringMatching(/^\/hooks\/hk_/),
      });
      expect(made.body.secret).toMatch(/^hks_/);
      hooks[kind] = made.body;
    }
    registry = await startRegistry({
      port,
      notifications: [
        { name: 'platform', url: `${t.url}${hooks.registry.hook.path}`, headers: { Authorization: `Bearer ${hooks.registry.secret}` } },
      ],
    });
    await registry.push('team/web', 'v1');
    pulled.add(`${host}/team/web:v1`);
  }, 120_000);

  afterAll(async () => {
    await cleanupEngine(instance);
    const docker = testDockerClient();
    for (const ref of pulled) await docker.removeImage(ref, { force: true }).catch(() => undefined);
    await docker.close();
    await registry?.stop();
    await t.close();
  });

  test('the secret is shown once: listing and reading a hook never show it', async () => {
    const listed = await t.request<Hook[]>('GET', `/apps/${appId}/hooks`);
    expect(listed.body.map((h) => h.kind)).toEqual(['generic', 'github', 'gitlab', 'registry']);
    expect(listed.text).not.toContain(hooks.generic.secret);
    expect(listed.text).not.toContain('secret');
  });

  test('a wrong or missing signature is a 401 that changes nothing; an unknown hook a 404; only POST', async () => {
    const { path } = hooks.generic.hook;
    const unsigned = await call(path, '{"tag":"v9"}', { 'content-type': 'application/json' });
    const forged = await call(path, '{"tag":"v9"}', genericCall('not-the-secret', { tag: 'v9' }).headers);
    // Signed for another body: a replayed signature does not fit a changed body.
    const swapped = await call(path, '{"tag":"v9"}', genericCall(hooks.generic.secret, { tag: 'v2' }).headers);
    for (const res of [unsigned, forged, swapped]) {
      expect(res).toMatchObject({
        status: 401,
        body: { code: 401, message: "the call is not signed with this hook's secret (X-Platform-Signature)", fields: '' },
      });
    }
    const github = await call(hooks.github.hook.path, githubPush('wrong').body, githubPush('wrong').headers);
    expect(github.status).toBe(401);
    const gitlab = await call(hooks.gitlab.hook.path, gitlabPush('wrong').body, gitlabPush('wrong').headers);
    expect(gitlab.status).toBe(401);
    const registryCall = await call(hooks.registry.hook.path, '{"events":[]}', { authorization: 'Bearer nope' });
    expect(registryCall.status).toBe(401);
    expect((await hook(hooks.generic.hook.id)).calls).toEqual([]);
    expect(await serviceImage()).toEqual([`${host}/team/web:v1`]);

    expect(await call('/hooks/hk_doesnotexist0000000000000', '{}', {})).toMatchObject({
      status: 404,
      body: { code: 404, message: 'no such hook', fields: '' },
    });
    const get = await request(`${t.url}${path}`);
    expect(get.statusCode).toBe(405);
    await get.body.dump();
  });

  test('a body over 1 MB is refused with 413, and the hook answers no browser origin', async () => {
    const big = Buffer.alloc(1024 * 1024 + 1, 'a');
    expect(await call(hooks.generic.hook.path, big, genericCall(hooks.generic.secret, undefined).headers)).toMatchObject({
      status: 413,
      body: { code: 413, message: 'the body is larger than 1048576 bytes', fields: '' },
    });
    const fromPage = await call(hooks.generic.hook.path, '{}', { origin: 'https://evil.example', 'content-type': 'text/plain' });
    expect(fromPage.headers['access-control-allow-origin']).toBeUndefined();
  });

  test('a signed generic call naming a tag redeploys the app with it, pulled; a retried delivery is not run twice', async () => {
    await registry.push('team/web', 'v2');
    pulled.add(`${host}/team/web:v2`);
    const signed = genericCall(hooks.generic.secret, { tag: 'v2' }, 'ci-run-41');
    const first = await call(hooks.generic.hook.path, signed.body, signed.headers);
    expect(first).toEqual({
      status: 202,
      headers: expect.anything(),
      body: { call: expect.any(Number), status: 'queued', duplicate: false, message: null },
    });
    const [done] = await calls(hooks.generic.hook.id, (c) => c[0]?.status !== 'queued');
    expect(done).toEqual({
      id: expect.any(Number),
      delivery_id: 'ci-run-41',
      event: 'deploy',
      status: 'done',
      message: `redeployed with ${host}/team/web:v2`,
      received_at: expect.any(String),
      finished_at: expect.any(String),
    });
    expect(await serviceImage()).toEqual([`${host}/team/web:v2`]);
    const docker = testDockerClient();
    try {
      expect((await docker.inspectImage(`${host}/team/web:v2`)).Id).toMatch(/^sha256:/);
    } finally {
      await docker.close();
    }
    // The sender retries the same delivery: answered with the first call's outcome, not run again.
    const again = await call(hooks.generic.hook.path, signed.body, signed.headers);
    expect(again).toMatchObject({
      status: 200,
      body: { call: first.body && (first.body as { call: number }).call, status: 'done', duplicate: true },
    });
    const audit = await t.request<{
      items: { actor_kind: string; actor_name: string; door: string; operation: string; outcome: string }[];
    }>('GET', `/audit_events?actor=${hooks.generic.hook.id}&operation=redeployApp`);
    expect(audit.body.items.map((e) => [e.actor_kind, e.actor_name, e.door, e.operation, e.outcome])).toEqual([
      ['webhook', 'generic sender', 'webhook', 'redeployApp', 'ok'],
    ]);
  });

  test("GitHub's push and ping, and GitLab's push, in their own formats", async () => {
    const ping = githubPush(hooks.github.secret, { event: 'ping' });
    expect(await call(hooks.github.hook.path, ping.body, ping.headers)).toMatchObject({
      status: 200,
      body: { status: 'ignored', message: 'GitHub event ping asks for nothing' },
    });
    const push = githubPush(hooks.github.secret);
    expect((await call(hooks.github.hook.path, push.body, push.headers)).status).toBe(202);
    const github = await calls(hooks.github.hook.id, (c) => c[0]?.status === 'done');
    expect(github.map((c) => [c.delivery_id, c.event, c.status, c.message])).toEqual([
      [push.headers['x-github-delivery'], 'push', 'done', 'redeployed'],
      [ping.headers['x-github-delivery'], 'ping', 'ignored', 'GitHub event ping asks for nothing'],
    ]);
    const gitlab = gitlabPush(hooks.gitlab.secret);
    expect((await call(hooks.gitlab.hook.path, gitlab.body, gitlab.headers)).status).toBe(202);
    const [gl] = await calls(hooks.gitlab.hook.id, (c) => c[0]?.status === 'done');
    expect([gl.delivery_id, gl.event, gl.message]).toEqual([gitlab.headers['idempotency-key'], 'Push Hook', 'redeployed']);
  });

  test("the real docker-registry's notification of a push redeploys the app that runs the pushed repository", async () => {
    await registry.push('team/web', 'v3');
    pulled.add(`${host}/team/web:v3`);
    const found = await calls(hooks.registry.hook.id, (c) =>
      c.some((x) => x.event === 'push' && x.status === 'done' && x.message?.includes(':v3')),
    );
    // The registry's own delivery id: its events' ids.
    expect(found.find((x) => x.message?.includes(':v3'))?.delivery_id).toMatch(/^[0-9a-f-]{36}/);
    expect(await serviceImage()).toEqual([`${host}/team/web:v3`]);
    // A push of a repository the app does not run asks for nothing of it.
    await registry.push('team/other', 'v1');
    await calls(hooks.registry.hook.id, (c) => c.some((x) => x.status === 'ignored' && x.message?.includes('team/other')));
    expect(await serviceImage()).toEqual([`${host}/team/web:v3`]);
  });

  test('a flood is answered 429 with Retry-After past the hook’s rate', async () => {
    const limited = await startTestApp({ HOOK_RATE_LIMIT: '12', HOOK_RATE_WINDOW_SECONDS: '3600' });
    const limitedInstance = await instanceId(limited);
    try {
      const app = await limited.request<{ id: number }>('POST', '/apps', { body: { image: `${host}/team/web:v1` } });
      const made = await limited.request<{ secret: string; hook: Hook }>('POST', `/apps/${app.body.id}/hooks`, {
        body: { kind: 'github' },
      });
      const ping = githubPush(made.body.secret, { event: 'ping' });
      const statuses: number[] = [];
      let retryAfter: string | string[] | undefined;
      for (let i = 0; i < 14; i++) {
        const res = await request(`${limited.url}${made.body.hook.path}`, {
          method: 'POST',
          headers: { ...ping.headers, 'x-github-delivery': `flood-${i}` },
          body: ping.body,
        });
        await res.body.dump();
        statuses.push(res.statusCode);
        if (res.statusCode === 429) retryAfter = res.headers['retry-after'];
      }
      expect(statuses).toEqual([...new Array<number>(12).fill(200), 429, 429]);
      expect(Number(retryAfter)).toBeGreaterThan(3500);
    } finally {
      // Closed first: it waits for the app's start, whose container a cleanup before it could miss.
      await limited.close();
      await cleanupEngine(limitedInstance);
    }
  });

  test('rotating the secret makes the old one useless; revoking makes the URL unknown', async () => {
    const { hook: h, secret: old } = hooks.gitlab;
    const rotated = await t.request<{ secret: string }>('POST', `/deploy_hooks/${h.id}/secret`);
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(old);
    expect((await call(h.path, gitlabPush(old).body, gitlabPush(old).headers)).status).toBe(401);
    expect((await t.request('DELETE', `/deploy_hooks/${h.id}`)).status).toBe(204);
    const fresh = gitlabPush(rotated.body.secret);
    expect((await call(h.path, fresh.body, fresh.headers)).status).toBe(404);
  });
});
