import { expect } from '@jest/globals';
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { printedOpenApi } from '../../rest/openapi-print';
import { extraRoutes, routes } from '../../rest/routes';
import { TestReceiver } from '../automation/receiver';
import { startAgent, startFakeAdapter, type RunningAgent } from '../agent/agent-harness';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, TEST_IMAGE } from '../helpers/docker';
import { makeGitRepo } from '../helpers/git';
import { contract, ContractChecker, OPENAPI_FILE } from '../helpers/openapi-contract';

const ROOT = path.resolve(__dirname, '../..');
type Id = { id: number };

describe('the OpenAPI document of the REST paths', () => {
  test('the committed rest/openapi.json is what the route table and operations make (npm run openapi:print)', () => {
    expect(readFileSync(OPENAPI_FILE, 'utf8')).toBe(printedOpenApi());
  });

  test('Redocly (@redocly/openapi-core, its recommended rules) finds no problem in it', () => {
    // The validator is an ES module only: it runs in a node process of its own.
    const run = spawnSync(process.execPath, [path.join(__dirname, 'openapi-lint.mjs'), OPENAPI_FILE], { cwd: ROOT, encoding: 'utf8' });
    expect({ status: run.status, stderr: run.stderr }).toEqual({ status: 0, stderr: '' });
    expect(JSON.parse(run.stdout)).toEqual({ version: '3.1.0', problems: [] });
  }, 60_000);

  test('GET /openapi.json serves it without a token; off with introspection', async () => {
    const t = await startTestApp();
    const off = await startTestApp({ GRAPHQL_INTROSPECTION: 'false' });
    try {
      const served = await t.request('GET', '/openapi.json', { token: null });
      expect({ status: served.status, type: served.headers['content-type'] }).toEqual({
        status: 200,
        type: 'application/json; charset=utf-8',
      });
      expect(served.text).toBe(readFileSync(OPENAPI_FILE, 'utf8'));
      expect((await off.request('GET', '/openapi.json', { token: null })).status).toBe(404);
    } finally {
      await t.close();
      await off.close();
    }
  });

  test('a drift between an answer and the document is caught', () => {
    const document = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as ConstructorParameters<typeof ContractChecker>[0] & {
      components: { schemas: Record<string, { properties: Record<string, unknown>; required: string[] }> };
    };
    const app = { id: 1, name: 'a', from: 'Template: a', errors: [], documentation: null, categories: [] };
    const checked = new ContractChecker(structuredClone(document));
    expect(checked.check({ method: 'GET', target: '/apps/1', status: 200, body: app })).toBeNull();
    // A member the document does not have (a field added to the operation, not printed)...
    expect(checked.check({ method: 'GET', target: '/apps/1', status: 200, body: { ...app, extra: 1 } })).toContain('additional');
    // ...one it says is there, missing, or of another type...
    const { documentation: _documentation, ...without } = app;
    expect(checked.check({ method: 'GET', target: '/apps/1', status: 200, body: without })).toContain('documentation');
    expect(checked.check({ method: 'GET', target: '/apps/1', status: 200, body: { ...app, id: '1' } })).toContain('/id');
    // ...a success status other than the route's, an error body not the contract's.
    expect(checked.check({ method: 'GET', target: '/apps/1', status: 201, body: app })).toContain('not a status the document lists');
    expect(checked.check({ method: 'GET', target: '/apps/1', status: 404, body: { error: 'x' } })).toContain('Error');
    // The document changed under an unchanged answer: the same.
    delete document.components.schemas.App.properties.documentation;
    document.components.schemas.App.required = document.components.schemas.App.required.filter((k) => k !== 'documentation');
    expect(new ContractChecker(document).check({ method: 'GET', target: '/apps/1', status: 200, body: app })).toContain('additional');
    // Paths outside the table are not the document's.
    expect(checked.check({ method: 'GET', target: '/healthz', status: 200, body: { status: 'ok' } })).toBeNull();
  });
});

/**
 * Every REST path of the table, called through the test helper, whose every answer is checked
 * against the document (test/helpers/app.ts): the same check the rest of the REST suite gets.
 * The real engine runs the apps; an agent over a recording adapter takes the deployments.
 */
describeDocker('every REST path keeps the OpenAPI contract', () => {
  let t: TestApp;
  let agent: RunningAgent;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let receiver: TestReceiver;
  const dirs: string[] = [];
  const sfx = Math.random().toString(36).slice(2, 8);

  beforeAll(async () => {
    t = await startTestApp({ REGISTRY_ALLOW_PRIVATE: 'true', WEBHOOK_ALLOW_PRIVATE: 'true' });
    receiver = await TestReceiver.start();
    adapter = await startFakeAdapter();
    agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
  });

  afterAll(async () => {
    await t?.close();
    await agent?.close();
    await adapter?.close();
    await receiver?.close();
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  test('each route answers its documented success, and every answer matches its schema', async () => {
    const ok = async <T = unknown>(method: string, target: string, body?: unknown): Promise<T> => {
      const res = await t.request<T>(method, target, body === undefined ? {} : { body });
      if (res.status >= 300) throw new Error(`${method} ${target}: ${res.status} ${res.text}`);
      return res.body;
    };
    // A bare remote with a template of the test image, as a hosted repository would be.
    const seed = makeGitRepo({
      'contract.pmx': [
        `name: contract-${sfx}`,
        'description: two busybox containers',
        'keywords: contract',
        'type: Default',
        'images:',
        `  - name: web-${sfx}`,
        `    source: ${TEST_IMAGE}`,
        '    command: sleep 3600',
        '  - name: db',
        `    source: ${TEST_IMAGE}`,
        '    command: sleep 3600',
        '    environment:',
        '      - variable: ROLE',
        '        value: db',
        '',
      ].join('\n'),
      // Its image pinned by digest as written: a deployment of it can be rolled back with no registry to ask.
      'pinned.pmx': [
        `name: pinned-${sfx}`,
        'type: Default',
        'images:',
        '  - name: web',
        `    source: ${TEST_IMAGE.split(':')[0]}@sha256:${'0'.repeat(64)}`,
        '',
      ].join('\n'),
    });
    const dir = mkdtempSync(path.join(os.tmpdir(), 'contract-remote-'));
    dirs.push(seed, dir);
    const remote = path.join(dir, 'remote.git');
    execFileSync('git', ['clone', '-q', '--bare', seed, remote]);

    await ok('GET', '/platform');
    await ok('GET', '/user');
    await ok('PUT', '/user', { email: 'ops@example.com' });
    await ok('GET', '/types');

    const repo = await ok<Id>('POST', '/template_repos', { name: remote });
    await ok('GET', '/template_repos');
    await ok('GET', `/template_repos/${repo.id}`);
    await ok('POST', `/template_repos/${repo.id}`);
    await ok('GET', '/keywords');
    const templates = await ok<(Id & { name: string })[]>('GET', '/templates');
    const template = templates.find((x) => x.name === `contract-${sfx}`)!;
    const pinnedTemplate = templates.find((x) => x.name === `pinned-${sfx}`)!;
    await ok('GET', `/templates/${template.id}`);
    await ok('GET', '/search?q=contract');

    const registry = await ok<Id>('POST', '/registries', { name: `reg-${sfx}`, endpoint_url: 'http://127.0.0.1:9' });
    await ok('GET', '/registries');
    await ok('GET', `/registries/${registry.id}`);
    await ok('PATCH', `/registries/${registry.id}`, { enabled: false });
    await ok('DELETE', `/registries/${registry.id}`);
    await ok('GET', `/repositories/${TEST_IMAGE.split(':')[0]}?local=true`);

    const app = await ok<Id>('POST', '/apps', { template_id: template.id });
    await ok('GET', '/apps');
    await ok('GET', `/apps/${app.id}`);
    await ok('GET', `/apps/${app.id}/journal`);
    await ok('GET', `/apps/${app.id}/compose_yml`);
    const services = await ok<(Id & Record<string, unknown>)[]>('GET', `/apps/${app.id}/services`);
    const service = await ok<Record<string, unknown>>('GET', `/apps/${app.id}/services/${services[0].id}`);
    await ok('PUT', `/apps/${app.id}/services/${services[0].id}`, { ...service, description: 'changed' });
    await ok('GET', `/apps/${app.id}/services/${services[0].id}/journal`);
    const extra = await ok<Id>('POST', `/apps/${app.id}/services`, { name: `extra-${sfx}`, from: TEST_IMAGE, command: 'sleep 3600' });
    await ok('DELETE', `/apps/${app.id}/services/${extra.id}`);
    const category = await ok<Id>('POST', `/apps/${app.id}/categories`, { name: 'Web' });
    await ok('GET', `/apps/${app.id}/categories`);
    await ok('GET', `/apps/${app.id}/categories/${category.id}`);
    await ok('PUT', `/apps/${app.id}/categories/${category.id}`, { name: 'Front', position: 1 });
    await ok('DELETE', `/apps/${app.id}/categories/${category.id}`);
    await ok('POST', `/apps/${app.id}/template`, {});
    const made = await ok<Id>('POST', '/templates', { app_id: app.id, name: `from-app-${sfx}` });
    await ok('POST', `/templates/${made.id}/save`, { repo: remote, name: `saved-${sfx}` });
    await ok('DELETE', `/templates/${made.id}`);
    await ok('PUT', `/apps/${app.id}`);
    // Its history: the revisions so far, and a rollback to the first (the create).
    await ok('GET', `/apps/${app.id}/revisions`);
    await ok('POST', `/apps/${app.id}/rollback`, { revision: 1 });

    const subscription = await ok<{ subscription: Id }>('POST', '/event_subscriptions', {
      url: receiver.url,
      event_types: ['deployment.created'],
    });
    const subscriptionId = subscription.subscription.id;
    const target = await ok<Id>('POST', '/deployment_targets', { name: `agent-${sfx}`, auth_blob: agent.token });
    await ok('GET', '/deployment_targets');
    await ok('GET', `/deployment_targets/${target.id}`);
    await ok('PUT', `/deployment_targets/${target.id}`, { name: `agent-${sfx}-renamed` });
    await ok('POST', `/deployment_targets/${target.id}/metadata/refresh`);
    const deployment = await ok<Id>('POST', `/deployment_targets/${target.id}/deployments`, { template_id: template.id });
    await ok('GET', `/deployment_targets/${target.id}/deployments`);
    await ok('GET', `/deployment_targets/${target.id}/deployments/${deployment.id}`);
    await ok('POST', `/deployment_targets/${target.id}/deployments/${deployment.id}/redeploy`);
    await ok('GET', `/deployment_targets/${target.id}/deployments/${deployment.id}/revisions`);
    const pinned = await ok<Id>('POST', `/deployment_targets/${target.id}/deployments`, { template_id: pinnedTemplate.id });
    await ok('POST', `/deployment_targets/${target.id}/deployments/${pinned.id}/rollback`, { revision: 1 });
    await ok('DELETE', `/deployment_targets/${target.id}/deployments/${pinned.id}`);

    // Deploy hooks of each owner, the app's automation, event subscriptions and the audit log.
    type Issued = { hook: Id };
    const owners = [`/apps/${app.id}`, `/deployment_targets/${target.id}/deployments/${deployment.id}`, `/template_repos/${repo.id}`];
    for (const owner of owners) {
      const issued = await ok<Issued>('POST', `${owner}/hooks`, { kind: 'generic' });
      await ok('GET', `${owner}/hooks`);
      await ok('GET', `/deploy_hooks/${issued.hook.id}`);
      await ok('POST', `/deploy_hooks/${issued.hook.id}/secret`);
      await ok('DELETE', `/deploy_hooks/${issued.hook.id}`);
    }
    await ok('PUT', `/apps/${app.id}/automation`, { redeploy_on_template_change: true });
    await ok('GET', '/event_subscriptions');
    await ok('GET', `/event_subscriptions/${subscriptionId}`);
    await ok('PATCH', `/event_subscriptions/${subscriptionId}`, { event_types: ['deployment.created', 'deployment.redeployed'] });
    await ok('POST', `/event_subscriptions/${subscriptionId}/secret`);

    await ok('DELETE', `/deployment_targets/${target.id}/deployments/${deployment.id}`);
    await ok('DELETE', `/deployment_targets/${target.id}`);
    await receiver.until((got) => got.length > 0, 'the deployment.created delivery');
    let deliveries: Id[] = [];
    for (const deadline = Date.now() + 60_000; !deliveries.length && Date.now() < deadline;) {
      deliveries = await ok<Id[]>('GET', `/event_subscriptions/${subscriptionId}/deliveries`);
      if (!deliveries.length) await new Promise((resolve) => setTimeout(resolve, 200));
    }
    await ok('POST', `/event_deliveries/${deliveries[0].id}/resend`);
    await ok('DELETE', `/event_subscriptions/${subscriptionId}`);
    await ok('GET', '/audit_events');
    await ok('GET', '/audit_events/export');

    await ok('DELETE', `/apps/${app.id}`);
    await ok('DELETE', `/templates/${template.id}`);
    await ok('DELETE', `/template_repos/${repo.id}`);

    // Errors are answers too: each kind, on its way, checked against the error body.
    expect((await t.request('GET', '/apps/999999')).status).toBe(404);
    expect((await t.request('POST', '/registries', { body: { name: 1 } })).status).toBe(400);
    expect((await t.request('GET', '/apps', { token: null })).status).toBe(401);

    const missed = [...routes, ...extraRoutes]
      .filter((row) => !contract().seen.get(`${row.method} ${row.path}`)?.has(row.status))
      .map((row) => `${row.method} ${row.path} ${row.status}`);
    expect(missed).toEqual([]);
  }, 240_000);
});
