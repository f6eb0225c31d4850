import { expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import { describeBrowser, launchChromium } from '../helpers/browser';
import { TEST_IMAGE } from '../helpers/docker';
import { cleanupEngine, image, instanceId, seedTemplate, waitFor } from '../apps/fixtures';
import { startAgent, startFakeAdapter, type RunningAgent } from '../agent/agent-harness';

const ROOT = path.resolve(__dirname, '../..');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: { id: string; impact: string | null }[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => `${v.id} (${v.impact})`);
}

/** The app page's History in Debian's chromium: the revisions, the diff of two, and a rollback confirmed with its diff. */
describeBrowser('web console: an app’s history', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let instance: string;
  let appId: number;
  let agent: RunningAgent | undefined;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>> | undefined;
  const revisions = async () =>
    (await t.request<{ number: number; outcome: string }[]>('GET', `/apps/${appId}/revisions`)).body.map((r) => [r.number, r.outcome]);

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.js'), '--console', '--if-stale'], { stdio: 'inherit' });
    t = await startTestApp({ SWITCH_GRACE_SECONDS: '1' });
    instance = await instanceId(t);
    const compose = `services:\n  web:\n    image: ${TEST_IMAGE}\n    command: sleep 3600\n    environment:\n      MODE: one\n`;
    appId = (await t.request<{ id: number }>('POST', '/apps', { body: { compose_yaml: compose, name: 'storied' } })).body.id;
    await waitFor(revisions, (list) => list[0]?.[1] === 'succeeded', 60_000);
    const [service] = (await t.request<{ id: number }[]>('GET', `/apps/${appId}/services`)).body;
    const edit = await t.graphql('mutation($input: UpdateServiceInput!) { updateService(input: $input) { __typename } }', {
      input: { appId, id: service.id, environment: [{ variable: 'MODE', value: 'two' }] },
    });
    expect(edit.body).toEqual({ data: { updateService: { __typename: 'Service' } } });
    expect(await revisions()).toEqual([
      [2, 'succeeded'],
      [1, 'succeeded'],
    ]);
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(t.url);
    await page.getByLabel('API token', { exact: true }).fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Apps' }).waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await agent?.close();
    await adapter?.close();
    if (instance) await cleanupEngine(instance);
    await t?.close();
  });

  test('the revisions with who, when, outcome and digests; the diff of two', async () => {
    await page.goto(`${t.url}/#/apps/${appId}`);
    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('heading', { name: 'History' }).waitFor();
    const row = (n: number) => history.locator(`tr[data-revision="${n}"]`);
    await row(2).waitFor();
    expect(await row(2).locator('td').allInnerTexts()).toEqual([
      expect.stringContaining('Compare revision 2'),
      'service',
      'admin',
      expect.any(String),
      'succeeded (current)',
      expect.stringMatching(/^web@[0-9a-f]{12}$/),
      '',
    ]);
    expect(await row(1).locator('td').nth(1).innerText()).toBe('create');
    await history.getByLabel('Compare revision 1').check();
    await history.getByLabel('Compare revision 2').check();
    const diff = history.getByRole('region', { name: 'Diff of revisions 1 and 2' });
    await diff.getByText('web environment.MODE: one → two').waitFor();
    expect(await diff.getByTestId('unified-diff').innerText()).toContain('-        value: one\n+        value: two');
    expect(await seriousViolations(page)).toEqual([]);
  });

  test('Roll back shows the diff to confirm, then the progress until it succeeded', async () => {
    const history = page.getByRole('region', { name: 'History' });
    await history.getByRole('button', { name: 'Roll back to revision 1…' }).click();
    const confirm = history.getByRole('group', { name: 'Confirm rollback' });
    await confirm.getByText('web environment.MODE: two → one').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    await confirm.getByRole('button', { name: 'Roll back to revision 1' }).click();
    await history.getByRole('status').filter({ hasText: 'Revision 3 succeeded' }).waitFor({ timeout: 60_000 });
    await history.locator('tr[data-revision="3"]').getByText('succeeded (current)').waitFor();
    expect(await history.locator('tr[data-revision="3"] td').nth(1).innerText()).toBe('rollback to 1');
    expect(await revisions()).toEqual([
      [3, 'succeeded'],
      [2, 'rolled back'],
      [1, 'succeeded'],
    ]);
  });

  test("a deployment's History on its target's page: Roll back sends the pinned revision to the agent", async () => {
    adapter = await startFakeAdapter();
    agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
    const targetId = (await t.request<{ id: number }>('POST', '/deployment_targets', { body: { name: 'edge', auth_blob: agent.token } }))
      .body.id;
    // Pinned by digest as written: its revisions have a digest with no registry to ask.
    const source = `${TEST_IMAGE.split(':')[0]}@sha256:${'1'.repeat(64)}`;
    const templateId = await seedTemplate(t, { name: 'pinned', images: [image({ name: 'web', source })] });
    const deployment = await t.request<{ id: number }>('POST', `/deployment_targets/${targetId}/deployments`, {
      body: { template_id: templateId },
    });
    expect(deployment.status).toBe(200);
    const id = deployment.body.id;
    expect((await t.request('POST', `/deployment_targets/${targetId}/deployments/${id}/redeploy`)).status).toBe(200);

    await page.goto(`${t.url}/#/targets/${targetId}`);
    await page.getByRole('button', { name: 'History of pinned' }).click();
    const history = page.getByRole('region', { name: 'History of pinned' });
    await history.locator('tr[data-revision="2"]').getByText('succeeded (current)').waitFor();
    expect(await history.locator('tr[data-revision="1"] td').nth(1).innerText()).toBe('create');
    await history.getByRole('button', { name: 'Roll back to revision 1…' }).click();
    const confirm = history.getByRole('group', { name: 'Confirm rollback' });
    await confirm.getByRole('region', { name: 'Diff of revisions 2 and 1' }).getByText('No change.').waitFor();
    await confirm.getByRole('button', { name: 'Roll back to revision 1' }).click();
    await history.getByRole('status').filter({ hasText: 'Revision 3 succeeded' }).waitFor({ timeout: 60_000 });
    await history.locator('tr[data-revision="3"]').getByText('succeeded (current)').waitFor();
    expect(await seriousViolations(page)).toEqual([]);
    const listed = await t.request<{ number: number; action: string; outcome: string }[]>(
      'GET',
      `/deployment_targets/${targetId}/deployments/${id}/revisions`,
    );
    expect(listed.body.map((r) => [r.number, r.action, r.outcome])).toEqual([
      [3, 'rollback', 'succeeded'],
      [2, 'redeploy', 'rolled back'],
      [1, 'create', 'succeeded'],
    ]);
  });
});
