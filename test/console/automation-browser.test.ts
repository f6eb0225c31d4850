import { expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { request } from 'undici';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import { describeBrowser, launchChromium } from '../helpers/browser';
import { makeGitRepo, pmx } from '../helpers/git';
import { TestReceiver } from '../automation/receiver';
import { githubPush } from '../automation/senders';

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

/** The console's automation pages in Debian's chromium: hooks, event subscriptions and the audit log, used as a person would. */
describeBrowser('web console: hooks, events and the audit log', () => {
  let t: TestApp;
  let browser: Browser;
  let page: Page;
  let receiver: TestReceiver;
  let repoDir: string;
  let repoId: number;

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.js'), '--console', '--if-stale'], { stdio: 'inherit' });
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    receiver = await TestReceiver.start();
    repoDir = makeGitRepo({ 'a.pmx': pmx('A') });
    repoId = (await t.request<{ id: number }>('POST', '/template_repos', { body: { name: repoDir } })).body.id;
    browser = await launchChromium();
    page = await (await browser.newContext({ viewport: { width: 1280, height: 900 } })).newPage();
    await page.goto(t.url);
    await page.getByLabel('API token', { exact: true }).fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('heading', { name: 'Apps' }).waitFor();
  }, 180_000);

  afterAll(async () => {
    await browser?.close();
    await receiver?.close();
    await t?.close();
    rmSync(repoDir, { recursive: true, force: true });
  });

  const section = (name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name }).click();

  test('a hook is made with its URL and secret shown once, and its deliveries are listed', async () => {
    await section('Hooks');
    await page.getByRole('heading', { name: 'Deploy hooks' }).waitFor();
    await page.getByLabel('Redeploys').selectOption('templateRepo');
    await page.getByLabel('Template repo id').fill(String(repoId));
    await page.getByLabel('Sender').selectOption('github');
    await page.getByLabel('Name', { exact: true }).fill('from GitHub');
    await page.getByRole('button', { name: 'Make hook' }).click();
    const url = await page.getByTestId('hook-url').textContent();
    const secret = await page.getByTestId('hook-secret').textContent();
    expect(url).toMatch(new RegExp(`^${t.url}/hooks/hk_`));
    expect(secret).toMatch(/^hks_/);
    expect(await seriousViolations(page)).toEqual([]);

    const ping = githubPush(secret!, { event: 'ping' });
    const res = await request(url!, { method: 'POST', headers: ping.headers, body: ping.body });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
    // Shown again, the page reads the hook afresh: the call is there, the secret is not.
    await section('Apps');
    await section('Hooks');
    const card = page.getByRole('article', { name: 'Hook from GitHub' });
    await card.getByRole('cell', { name: 'ignored' }).waitFor();
    expect(await page.getByTestId('hook-secret').count()).toBe(0);
    expect(await page.content()).not.toContain(secret!);
  });

  test('a URL is subscribed to events, its delivery log shows them, and one is resent', async () => {
    await section('Events');
    await page.getByRole('heading', { name: 'Event subscriptions' }).waitFor();
    await page.getByLabel('Receiver URL').fill(receiver.url);
    await page.getByLabel('template_repo.reload_failed').check();
    await page.getByRole('button', { name: 'Subscribe' }).click();
    receiver.secret = (await page.getByTestId('subscription-secret').textContent()) ?? '';
    expect(receiver.secret).toMatch(/^whsec_/);
    expect(await seriousViolations(page)).toEqual([]);

    rmSync(repoDir, { recursive: true, force: true });
    expect((await t.request('POST', `/template_repos/${repoId}`)).status).toBe(502);
    await receiver.until((got) => got.length === 1, 'the delivery');
    expect(receiver.received[0].verified).toBe(true);
    const card = page.getByRole('article', { name: `Subscription ${receiver.url}` });
    // Read again until the log has the attempt (it is written once the receiver has answered).
    for (let i = 0; (await card.getByRole('cell', { name: 'delivered' }).count()) === 0; i++) {
      if (i > 100) throw new Error('the delivery never showed in the log');
      await section('Audit');
      await section('Events');
      await card.waitFor();
    }
    await card.getByRole('button', { name: 'Resend template_repo.reload_failed' }).first().click();
    await receiver.until((got) => got.length === 2, 'the resent delivery');
    expect(receiver.received[1].json.id).toBe(receiver.received[0].json.id);
  });

  test('the audit log is filtered and exported', async () => {
    await section('Audit');
    await page.getByRole('heading', { name: 'Audit log' }).waitFor();
    await page.getByLabel('Operation').fill('createEventSubscription');
    await page.getByRole('button', { name: 'Filter' }).click();
    await page.getByRole('cell', { name: 'createEventSubscription' }).waitFor();
    expect(await page.getByRole('row').count()).toBe(2); // the header and the one record
    expect(await page.getByRole('cell', { name: 'console', exact: true }).count()).toBe(1);
    expect(await seriousViolations(page)).toEqual([]);
    const href = await page.getByRole('link', { name: 'Export as JSON lines' }).getAttribute('href');
    expect(href).toBe('/audit_events/export?operation=createEventSubscription');
    const exported = await page.context().request.get(`${t.url}${href!}`);
    expect(exported.status()).toBe(200);
    const lines = (await exported.text())
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as { operation: string; door: string; outcome: string });
    expect(lines.map((l) => [l.operation, l.door, l.outcome])).toEqual([['createEventSubscription', 'console', 'ok']]);
  });
});
