import { expect } from '@jest/globals';
import { rmSync } from 'node:fs';
import { request } from 'undici';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, testDockerClient } from '../helpers/docker';
import { commitFiles, makeGitRepo } from '../helpers/git';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';
import { cleanupEngine, instanceId, waitFor } from '../apps/fixtures';
import { githubPush } from './senders';

const describeBoth = registryAvailable() ? describeDocker : describe.skip;

const template = (name: string, source: string) =>
  [
    `name: ${name}`,
    'description: a site',
    'type: Default',
    'images:',
    '  - name: web',
    `    source: ${source}`,
    '    command: sleep 3600',
    '',
  ].join('\n');

/**
 * A git push to a template repo's hook reloads the repo and redeploys the apps made from a
 * template whose file changed, when the app opted in.
 */
describeBoth('a template repo hook', () => {
  let t: TestApp;
  let registry: TestRegistry;
  let repoDir: string;
  let repoId: number;
  let hook: { path: string; id: number };
  let secret: string;
  let following: number;
  let standing: number;
  const refs: string[] = [];

  const images = async (appId: number) => (await t.request<{ from: string }[]>('GET', `/apps/${appId}/services`)).body.map((s) => s.from);
  const push = async (files: string[]) => {
    const sent = githubPush(secret, { files });
    const res = await request(`${t.url}${hook.path}`, { method: 'POST', headers: sent.headers, body: sent.body });
    expect(res.statusCode).toBe(202);
    await res.body.dump();
    return sent.headers['x-github-delivery'];
  };
  const finished = async (delivery: string) =>
    waitFor(
      async () =>
        (await t.request<{ calls: { delivery_id: string; status: string; message: string }[] }>('GET', `/deploy_hooks/${hook.id}`)).body
          .calls,
      (calls) => calls.some((c) => c.delivery_id === delivery && c.status !== 'queued'),
      90_000,
    ).then((calls) => calls.find((c) => c.delivery_id === delivery)!);

  beforeAll(async () => {
    t = await startTestApp();
    registry = await startRegistry();
    for (const tag of ['v1', 'v2']) {
      await registry.push('team/site', tag);
      refs.push(`${registry.host}/team/site:${tag}`);
    }
    repoDir = makeGitRepo({ 'site.pmx': template('Site', refs[0]), 'README.md': 'templates\n' });
    repoId = (await t.request<{ id: number }>('POST', '/template_repos', { body: { name: repoDir } })).body.id;
    const [site] = (await t.request<{ id: number }[]>('GET', '/templates')).body;
    following = (await t.request<{ id: number }>('POST', '/apps', { body: { template_id: site.id, name: 'follows' } })).body.id;
    standing = (await t.request<{ id: number }>('POST', '/apps', { body: { template_id: site.id, name: 'stays' } })).body.id;
    expect((await t.request('PUT', `/apps/${following}/automation`, { body: { redeploy_on_template_change: true } })).body).toEqual({
      id: following,
      redeploy_on_template_change: true,
    });
    const made = await t.request<{ secret: string; hook: { path: string; id: number } }>('POST', `/template_repos/${repoId}/hooks`, {
      body: { kind: 'github' },
    });
    expect(made.status).toBe(201);
    ({ secret, hook } = made.body);
  }, 120_000);

  afterAll(async () => {
    await cleanupEngine(await instanceId(t));
    const docker = testDockerClient();
    for (const ref of refs) await docker.removeImage(ref, { force: true }).catch(() => undefined);
    await docker.close();
    await registry.stop();
    await t.close();
    rmSync(repoDir, { recursive: true, force: true });
  });

  test('a push that changes no template reloads the repo and redeploys nothing', async () => {
    commitFiles(repoDir, { 'README.md': 'templates, and how to use them\n' });
    const call = await finished(await push(['README.md']));
    expect([call.status, call.message]).toEqual(['done', 'reloaded; 0 template(s) changed; 0 app(s) redeployed']);
  });

  test("a push that changes the template redeploys the app that opted in, with the template's new image", async () => {
    commitFiles(repoDir, { 'site.pmx': template('Site', refs[1]) });
    const call = await finished(await push(['site.pmx']));
    expect([call.status, call.message]).toEqual(['done', 'reloaded; 1 template(s) changed; 1 app(s) redeployed']);
    expect(await images(following)).toEqual([refs[1]]);
    expect(await images(standing)).toEqual([refs[0]]);
    const audit = await t.request<{ items: { actor_kind: string; operation: string; object_id: string; outcome: string }[] }>(
      'GET',
      `/audit_events?actor=${hook.id}`,
    );
    expect(audit.body.items.slice(0, 2).map((e) => [e.actor_kind, e.operation, e.object_id, e.outcome])).toEqual([
      ['webhook', 'redeployApp', String(following), 'ok'],
      ['webhook', 'reloadTemplateRepo', String(repoId), 'ok'],
    ]);
  });
});
