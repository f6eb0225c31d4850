import { expect } from '@jest/globals';
import { execFile } from 'node:child_process';
import { promisify } from 'node:util';
import { request } from 'undici';
import { freePort } from '../../src/net/free-port';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, makeImage, testDockerClient } from '../helpers/docker';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';
import { cleanupEngine, instanceId, suffix, waitFor } from '../apps/fixtures';
import { genericCall } from '../automation/senders';
import { until, wsClient, wsSubscribe } from '../events/clients';

const run = promisify(execFile);

interface RevisionBody {
  number: number;
  action: string;
  outcome: string;
  error: string | null;
  current: boolean;
}

interface HookCall {
  status: string;
  message: string | null;
}

/** The host ports the engine's list says a container publishes. */
const published = (c: object) => (c as { Ports: { PublicPort?: number }[] }).Ports.map((p) => p.PublicPort);

const describeBoth = registryAvailable() ? describeDocker : describe.skip;

/**
 * A redeploy brings the new containers up beside the old and removes the old only once the new
 * are healthy (the compose healthcheck here): one that exits, or turns unhealthy, is removed and
 * the old one keeps serving, and the revision says failed.
 */
describeBoth('the health-gated switch of an app on the local engine', () => {
  const docker = testDockerClient();
  let t: TestApp;
  let registry: TestRegistry;
  let instance: string;
  let repository: string;
  let appId: number;
  let hook: { path: string; id: number; secret: string };
  const made = new Set<string>();

  /** `tag` of the repository: the test image running `script`. */
  const push = async (tag: string, script: string) => {
    const local = `platform-test/gate-${tag}:${suffix()}`;
    await makeImage(docker, local, ['sh', '-c', script]);
    await run('docker', ['tag', local, `${repository}:${tag}`]);
    await docker.removeImage(local);
    await run('docker', ['push', `${repository}:${tag}`]);
    made.add((await docker.inspectImage(`${repository}:${tag}`)).Id);
  };
  const revisions = async () => (await t.request<RevisionBody[]>('GET', `/apps/${appId}/revisions`)).body;
  const containers = () => docker.listContainers({ all: true, labels: { 'platform.instance': instance, 'platform.app': String(appId) } });
  const redeployTo = async (tag: string): Promise<HookCall> => {
    const call = genericCall(hook.secret, { tag });
    const res = await request(`${t.url}${hook.path}`, { method: 'POST', headers: call.headers, body: call.body });
    expect(res.statusCode).toBe(202);
    const { call: id } = (await res.body.json()) as { call: number };
    const read = async () => (await t.request<{ calls: (HookCall & { id: number })[] }>('GET', `/deploy_hooks/${hook.id}`)).body.calls;
    const calls = await waitFor(read, (list) => list.some((c) => c.id === id && c.status !== 'queued'), 120_000);
    const { status, message } = calls.find((c) => c.id === id)!;
    return { status, message };
  };

  beforeAll(async () => {
    t = await startTestApp({ SWITCH_GRACE_SECONDS: '1', SWITCH_HEALTH_TIMEOUT_SECONDS: '60', HOOK_RATE_LIMIT: '1000' });
    instance = await instanceId(t);
    registry = await startRegistry();
    repository = `${registry.host}/team/gate-${suffix()}`;
    await push('good', 'touch /tmp/ready; exec sleep 3600');
    const compose = [
      'services:',
      '  web:',
      `    image: ${repository}:good`,
      '    healthcheck:',
      '      test: ["CMD-SHELL", "test -f /tmp/ready"]',
      '      interval: 1s',
      '      timeout: 1s',
      '      retries: 2',
      '',
    ].join('\n');
    const created = await t.request<{ id: number }>('POST', '/apps', { body: { compose_yaml: compose, name: 'gated' } });
    expect(created.status).toBe(200);
    appId = created.body.id;
    await waitFor(revisions, (list) => list[0]?.outcome === 'succeeded', 60_000);
    const issued = await t.request<{ secret: string; hook: { path: string; id: number } }>('POST', `/apps/${appId}/hooks`, {
      body: { kind: 'generic', name: 'ci', allow_tag: true },
    });
    hook = { ...issued.body.hook, secret: issued.body.secret };
  }, 120_000);

  afterAll(async () => {
    await cleanupEngine(instance);
    for (const id of made) await docker.removeImage(id, { force: true }).catch(() => undefined);
    await docker.close();
    await registry?.stop();
    await t.close();
  });

  test('a new version that exits is removed; the old container keeps serving; the revision is failed', async () => {
    const [old] = await containers();
    await push('crashing', 'exit 3');
    expect(await redeployTo('crashing')).toEqual({
      status: 'failed',
      message: 'the new version did not get healthy and was removed; the old one keeps running: web: exited with code 3',
    });
    expect((await containers()).map((c) => [c.Id, c.State, c.Names[0]])).toEqual([[old.Id, 'running', old.Names[0]]]);
    const [failed] = await revisions();
    expect(failed).toMatchObject({ number: 2, action: 'redeploy', outcome: 'failed', current: false, error: 'web: exited with code 3' });
    const services = await t.request<{ from: string }[]>('GET', `/apps/${appId}/services`);
    expect(services.body.map((s) => s.from)).toEqual([`${repository}:good`]);
  });

  test('a new version whose health check fails is removed the same way', async () => {
    const [old] = await containers();
    await push('sick', 'exec sleep 3600');
    const outcome = await redeployTo('sick');
    expect(outcome.status).toBe('failed');
    expect(outcome.message).toMatch(/web: is unhealthy \(its health check exited 1/);
    expect((await containers()).map((c) => [c.Id, c.State])).toEqual([[old.Id, 'running']]);
    expect((await revisions()).map((r) => [r.number, r.outcome, r.current])).toEqual([
      [3, 'failed', false],
      [2, 'failed', false],
      [1, 'succeeded', true],
    ]);
  });

  test('a healthy new version replaces the old, which goes only then; subscribers see each step, then the outcome', async () => {
    const [old] = await containers();
    await push('fixed', 'touch /tmp/ready; exec sleep 3600');
    const client = wsClient(t.url);
    const stream = wsSubscribe(client, 'subscription($a: Int) { revisionChanged(appId: $a) { appId number outcome step } }', { a: appId });
    await until(() => t.app.deps.events.bus.subscriberCount('revision_events') === 1, 'the subscriber');
    expect(await redeployTo('fixed')).toEqual({ status: 'done', message: `redeployed with ${repository}:fixed` });
    type Event = { revisionChanged: { appId: number; number: number; outcome: string; step: string | null } };
    const events: Event['revisionChanged'][] = [];
    while (events.at(-1)?.outcome !== 'succeeded') events.push((await stream.next<Event>()).data.revisionChanged);
    await stream.close();
    await client.dispose();
    // Repeated while it waits: one of each.
    const steps = events.filter((e, i) => i === 0 || e.step !== events[i - 1].step);
    expect(steps).toEqual([
      { appId, number: 4, outcome: 'in progress', step: null },
      { appId, number: 4, outcome: 'in progress', step: 'web: getting its image' },
      { appId, number: 4, outcome: 'in progress', step: 'web: starting its new containers' },
      { appId, number: 4, outcome: 'in progress', step: 'waiting until web is healthy' },
      { appId, number: 4, outcome: 'succeeded', step: null },
    ]);
    const now = await containers();
    expect(now.map((c) => c.State)).toEqual(['running']);
    expect(now[0].Id).not.toBe(old.Id);
    expect((await docker.inspectContainer(now[0].Id))!.State.Health!.Status).toBe('healthy');
    expect((await revisions()).map((r) => [r.number, r.outcome, r.current])).toEqual([
      [4, 'succeeded', true],
      [3, 'failed', false],
      [2, 'failed', false],
      [1, 'succeeded', false],
    ]);
  });

  test('a service publishing a fixed host port: its old container stops for the new one, and runs again when the new one fails', async () => {
    const port = await freePort();
    const compose = `services:\n  web:\n    image: ${repository}:good\n    ports:\n      - "127.0.0.1:${port}:8080"\n`;
    const created = await t.request<{ id: number }>('POST', '/apps', { body: { compose_yaml: compose, name: 'published' } });
    const other = created.body.id;
    const listed = async () => (await t.request<RevisionBody[]>('GET', `/apps/${other}/revisions`)).body;
    await waitFor(listed, (list) => list[0]?.outcome === 'succeeded', 60_000);
    const issued = await t.request<{ secret: string; hook: { path: string; id: number } }>('POST', `/apps/${other}/hooks`, {
      body: { kind: 'generic', name: 'ci', allow_tag: true },
    });
    const mine = () => docker.listContainers({ all: true, labels: { 'platform.instance': instance, 'platform.app': String(other) } });
    const [old] = await mine();
    const saved = hook;
    hook = { ...issued.body.hook, secret: issued.body.secret };
    try {
      expect((await redeployTo('crashing')).status).toBe('failed');
      const back = await mine();
      expect(back.map((c) => [c.Id, c.State, c.Names[0]])).toEqual([[old.Id, 'running', old.Names[0]]]);
      expect(published(back[0])).toContain(port);
      expect(await redeployTo('fixed')).toEqual({ status: 'done', message: `redeployed with ${repository}:fixed` });
      const now = await mine();
      expect(now.map((c) => c.State)).toEqual(['running']);
      expect(now[0].Id).not.toBe(old.Id);
      expect(published(now[0])).toContain(port);
    } finally {
      hook = saved;
    }
  });
});
