import { expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Browser, BrowserContext, Page } from 'playwright-core';
import { encodeToken, rotateCredentials } from '../../src/agent/credentials';
import { createSelfSigned } from '../../src/agent/self-signed';
import { freePort } from '../../src/net/free-port';
import { cleanupEngine, instanceId, suffix, waitFor } from '../apps/fixtures';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import { describeBrowser, launchChromium } from '../helpers/browser';
import { describeDocker, testDockerClient, testDockerHost } from '../helpers/docker';
import { agentRequest, startAgent, startFakeAdapter } from '../agent/agent-harness';
import { makeGitRepo, pmx } from '../helpers/git';

const ROOT = path.resolve(__dirname, '../..');
/** Screenshots of the main pages, kept by CI as artifacts (a few are copied to docs/ for the README). */
const ARTIFACTS = path.join(ROOT, 'test', '.artifacts', 'console');
const AXE = readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: { target: unknown[] }[];
}

/** axe-core's serious and critical violations on the page as it is now (run through the debugger: the page's CSP stays on). */
async function seriousViolations(page: Page): Promise<string[]> {
  await page.evaluate(AXE);
  const violations = await page.evaluate(async () => {
    const axe = (window as unknown as { axe: { run(): Promise<{ violations: AxeViolation[] }> } }).axe;
    return (await axe.run()).violations;
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${JSON.stringify(v.nodes.map((n) => n.target))}`);
}

/**
 * The web console in Debian's chromium against the real service, on a real Docker engine: each
 * task done as a person would, by typing and clicking and waiting for what the page shows.
 */
describeBrowser('web console', () => {
  describeDocker('in a browser', () => {
    let t: TestApp;
    let browser: Browser;
    let instance: string;
    const cspViolations: string[] = [];
    const sfx = suffix();
    const templateName = `Console Demo ${sfx}`;

    beforeAll(async () => {
      execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.js'), '--console', '--if-stale'], { stdio: 'inherit' });
      mkdirSync(ARTIFACTS, { recursive: true });
      t = await startTestApp();
      instance = await instanceId(t);
      const repo = makeGitRepo({
        'demo.pmx': pmx(templateName, {
          keywords: 'console demo',
          images: [
            '  - name: web',
            '    source: platform-test/busybox:latest',
            `    command: sh -c "echo hello-from-${sfx} && exec httpd -f -p 80"`,
            '    expose: [80]',
            '    environment:',
            '      - variable: GREETING',
            '        value: hello',
          ].join('\n'),
        }),
      });
      expect((await t.request('POST', '/template_repos', { body: { name: repo } })).status).toBe(200);
      // Documentation written to attack the page that renders it.
      const hostile = makeGitRepo({
        'hostile.pmx': [
          `name: Hostile ${sfx}`,
          'description: documentation that tries to run script',
          'type: Default',
          'documentation: |',
          '  ## Setup',
          '  - first **step**',
          '',
          '  <script>window.__pwned = 1</script>',
          '',
          '  <img src="x" onerror="window.__pwned = 2">',
          '',
          '  [click me](javascript:window.__pwned=3)',
          'images:',
          '  - name: web',
          '    source: platform-test/busybox:latest',
          '    command: httpd -f -p 80',
          '    links:',
          '      - service: db',
          '        alias: database',
          '    environment:',
          '      - variable: MODE',
          '        value: demo',
          '  - name: db',
          '    source: platform-test/busybox:latest',
          '    command: sleep 3600',
          '',
        ].join('\n'),
      });
      expect((await t.request('POST', '/template_repos', { body: { name: hostile } })).status).toBe(200);
      browser = await launchChromium();
    }, 120_000);

    afterAll(async () => {
      await browser?.close();
      await t?.close();
      if (instance) await cleanupEngine(instance);
    });

    async function open(
      options: { colorScheme?: 'light' | 'dark'; width?: number } = {},
    ): Promise<{ context: BrowserContext; page: Page }> {
      const context = await browser.newContext({
        viewport: { width: options.width ?? 1280, height: 860 },
        colorScheme: options.colorScheme ?? 'light',
      });
      const page = await context.newPage();
      page.on('console', (message) => {
        if (/Content Security Policy/i.test(message.text())) cspViolations.push(message.text());
      });
      await page.goto(t.url);
      return { context, page };
    }

    /** An app of the demo template, made through the API; its id. */
    async function launch(name: string): Promise<number> {
      const templateId = (await t.request<{ id: number; name: string }[]>('GET', '/templates')).body.find(
        (x) => x.name === templateName,
      )!.id;
      const launched = await t.graphql<{ createApp: { databaseId: number } }>(
        `mutation($templateId: Int!, $name: String!) { createApp(input: { templateId: $templateId, name: $name }) { ... on App { databaseId } } }`,
        { templateId, name },
      );
      return launched.body.data.createApp.databaseId;
    }

    test("an app's page shows a change made between its read and its subscription (the stream is held until the change is made)", async () => {
      const id = await launch(`Held ${sfx}`);
      type Web = { activeState: string | null; subState: string | null; replicas: { containerId: string }[] };
      const web = async () =>
        (
          await t.graphql<{ app: { services: (Web & { name: string })[] } }>(
            'query($id: Int!) { app(id: $id) { ... on App { services { name activeState subState replicas { containerId } } } } }',
            { id },
          )
        ).body.data.app.services.find((s) => s.name === 'web')!;
      const docker = testDockerClient();
      let context: BrowserContext | undefined;
      try {
        // The engine's events followed already, as on a service with earlier subscribers: a feed that starts
        // for the page's subscription would replay the last seconds' events to it.
        const feed = t.app.deps.events.serviceStates;
        feed.ensureStarted();
        await waitFor(() => Promise.resolve(feed.following), Boolean);
        const running = await waitFor(web, (s) => s.activeState === 'active', 60_000);
        const container = running.replicas[0].containerId;
        await docker.stopContainer(container, 1);
        const stopped = await waitFor(web, (s) => s.activeState !== 'active');

        // The page reads the stopped service; its subscription's stream waits until the service runs again.
        let release!: () => void;
        const released = new Promise<void>((resolve) => (release = resolve));
        let held = 0;
        const opened = await open();
        context = opened.context;
        const page = opened.page;
        await signIn(page, ADMIN_TOKEN);
        await page.getByRole('heading', { name: 'Apps' }).waitFor();
        await page.route('**/graphql/stream**', async (route) => {
          held++;
          await released;
          await route.continue();
        });
        await page.goto(`${t.url}/#/apps/${id}`);
        const row = page.locator('tr[data-service="web"]');
        await row.getByText(`${stopped.activeState} (${stopped.subState})`).waitFor({ timeout: 30_000 });
        await waitFor(
          () => Promise.resolve(held),
          (n) => n > 0,
        );
        await docker.startContainer(container);
        await waitFor(web, (s) => s.activeState === 'active', 60_000);
        release();
        // No event is left to tell the page: it reads the app again once its stream is open.
        await row.getByText('active (running)').waitFor({ timeout: 30_000 });
      } finally {
        await context?.close();
        await docker.close();
        await t.request('DELETE', `/apps/${id}`);
      }
    });

    const section = (page: Page, name: string) => page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name });

    /** The Templates section, searched for `q` as a person would. */
    async function searchTemplates(page: Page, q: string) {
      await section(page, 'Templates').click();
      await page.getByLabel('Search templates and registry images').fill(q);
      await page.getByRole('button', { name: 'Search', exact: true }).click();
    }

    async function signIn(page: Page, token: string) {
      await page.getByLabel('API token', { exact: true }).fill(token);
      await page.getByRole('button', { name: 'Sign in' }).click();
    }

    test('signs in with a token (a wrong one is refused), keeps no token in the page, stays signed in on reload, signs out', async () => {
      const { context, page } = await open();
      await page.getByRole('heading', { name: 'Platform console' }).waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'sign-in.png') });

      await signIn(page, 'plt_wrong');
      await page.getByRole('alert').getByText('the token is not valid').waitFor();

      await signIn(page, ADMIN_TOKEN);
      await page.getByRole('heading', { name: 'Apps' }).waitFor();
      await page.getByText('admin (read, write, deploy, admin)').waitFor();
      // The session is an HttpOnly cookie: nothing the page's scripts can read holds a credential.
      const stored = await page.evaluate(() => ({
        cookies: document.cookie,
        local: JSON.stringify(localStorage),
        session: JSON.stringify(sessionStorage),
      }));
      expect(stored).toEqual({ cookies: '', local: '{}', session: '{}' });
      const [cookie] = await context.cookies();
      expect(cookie).toMatchObject({ name: 'platform_session', httpOnly: true, sameSite: 'Strict' });

      await page.reload();
      await page.getByRole('heading', { name: 'Apps' }).waitFor();

      await page.getByRole('button', { name: 'Sign out' }).click();
      await page.getByRole('heading', { name: 'Platform console' }).waitFor();
      // The cookie's session is gone on the server too, not only forgotten by the page.
      const after = await t.request('GET', '/apps', { token: null, headers: { cookie: `platform_session=${cookie.value}` } });
      expect(after.status).toBe(401);
      await context.close();
    });

    test('finds a template (matches highlighted), launches it, and watches its service come up live; the log tails', async () => {
      const { context, page } = await open();
      await signIn(page, ADMIN_TOKEN);
      await searchTemplates(page, 'demo');
      const card = page.locator('li.card', { hasText: templateName });
      await card.waitFor();
      expect(await card.locator('mark').first().innerText()).toBe('Demo');
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'templates.png') });

      await card.getByRole('button', { name: `Launch ${templateName}` }).click();
      await page.getByRole('heading', { name: templateName }).waitFor({ timeout: 30_000 });
      const row = page.locator('tr[data-service="web"]');
      // Updated by the subscription: the page is not reloaded and does not poll the app.
      await row.getByText('active (running)').waitFor({ timeout: 60_000 });
      expect(await seriousViolations(page)).toEqual([]);
      // The log tails what the container printed; a filter narrows it, a pause stops following.
      const log = page.getByRole('log', { name: 'Log lines' });
      await log.getByText(`hello-from-${sfx}`).waitFor({ timeout: 30_000 });
      await page.screenshot({ path: path.join(ARTIFACTS, 'app.png'), fullPage: true });
      await page.getByRole('searchbox', { name: 'Filter' }).fill('no-such-line');
      expect((await log.innerText()).trim()).toBe('');
      await page.getByRole('searchbox', { name: 'Filter' }).fill('');
      await page.getByLabel('Service', { exact: true }).selectOption('web');
      await log.getByText(`hello-from-${sfx}`).waitFor();
      await page.getByRole('button', { name: 'Pause' }).click();
      expect(await page.getByRole('button', { name: 'Follow' }).getAttribute('aria-pressed')).toBe('false');

      // The app list shows it with its service's state.
      await section(page, 'Apps').click();
      await page.getByRole('link', { name: templateName }).waitFor();
      await page.screenshot({ path: path.join(ARTIFACTS, 'apps.png') });

      // Delete, confirmed.
      await page.getByRole('link', { name: templateName }).click();
      await page.getByRole('button', { name: 'Delete app…' }).click();
      await page.getByRole('button', { name: `Delete ${templateName}` }).click();
      await page.getByRole('heading', { name: 'Apps' }).waitFor();
      await page.getByText('No apps yet.').waitFor();
      await context.close();
    });

    test('edits a service (command, environment) and it is recreated with them; previews the app as a template and saves it to a repo', async () => {
      // Named apart from the template: saving it makes a template of that name.
      const created = { body: { id: await launch(`Edited ${sfx}`) } };
      const remote = path.join(mkdtempSync(path.join(os.tmpdir(), 'console-save-')), 'saved.git');
      execFileSync('git', ['clone', '-q', '--bare', makeGitRepo({ 'README.md': 'templates' }), remote]);
      expect((await t.request('POST', '/template_repos', { body: { name: remote } })).status).toBe(200);
      try {
        const { context, page } = await open();
        await signIn(page, ADMIN_TOKEN);
        await page.goto(`${t.url}/#/apps/${created.body.id}`);
        const row = page.locator('tr[data-service="web"]');
        await row.getByText('active (running)').waitFor({ timeout: 60_000 });

        await row.getByRole('button', { name: 'Edit web' }).click();
        await page.getByLabel('Command').fill(`sh -c "echo edited-${sfx} && exec httpd -f -p 80"`);
        await page.getByLabel(/^Environment/).fill('GREETING=edited');
        await page.getByLabel(/^Restart policy/).fill('on-failure:5');
        await page.getByRole('button', { name: 'Save and recreate' }).click();
        await page.getByRole('heading', { name: 'Edit web' }).waitFor({ state: 'detached', timeout: 60_000 });
        await page.getByRole('log', { name: 'Log lines' }).getByText(`edited-${sfx}`).waitFor({ timeout: 30_000 });
        await row.getByText('active (running)').waitFor({ timeout: 30_000 });
        const docker = testDockerClient();
        try {
          const [container] = await docker.listContainers({ labels: { 'platform.instance': instance } });
          const inspected = await docker.inspectContainer(container.Id);
          expect(inspected!.Config.Env).toContain('GREETING=edited');
          expect(inspected!.HostConfig.RestartPolicy).toEqual({ Name: 'on-failure', MaximumRetryCount: 5 });
        } finally {
          await docker.close();
        }

        await page.getByRole('button', { name: 'Preview template' }).click();
        const preview = page.getByRole('region', { name: 'Template preview' });
        await preview.getByText(/GREETING/).waitFor();
        expect(await preview.innerText()).toContain(`edited-${sfx}`);
        await page.getByLabel('Template repo').selectOption(remote);
        await page.getByRole('button', { name: 'Save to repo' }).click();
        const saved = await page.getByRole('status').filter({ hasText: 'Saved as' }).innerText();
        const file = /Saved as (.+\.pmx)\./.exec(saved)![1];
        const committed = execFileSync('git', ['--git-dir', remote, 'show', `HEAD:${file}`], { encoding: 'utf8' });
        expect(committed).toContain('GREETING');
        expect(committed).toContain('restart_policy: on-failure:5');
        expect(await seriousViolations(page)).toEqual([]);
        await context.close();
      } finally {
        await t.request('DELETE', `/apps/${created.body.id}`);
      }
    });

    test("a template's page shows its images, links and environment, its documentation as Markdown that cannot run script, and launches it with values typed over its environment", async () => {
      const { context, page } = await open();
      await signIn(page, ADMIN_TOKEN);
      await searchTemplates(page, 'hostile');
      await page.getByRole('link', { name: `Hostile ${sfx}` }).click();
      await page.getByRole('heading', { name: `Hostile ${sfx}`, level: 1 }).waitFor();
      await page.getByRole('cell', { name: 'db as database' }).waitFor();
      await page.getByText('MODE=demo').waitFor();
      const docs = page.locator('.documentation');
      await docs.getByRole('heading', { name: 'Setup' }).waitFor();
      expect(await docs.locator('li strong').innerText()).toBe('step');
      expect(await docs.locator('script, img, iframe').count()).toBe(0);
      const link = docs.getByRole('link', { name: 'click me' });
      expect(await link.getAttribute('href')).not.toMatch(/^javascript:/i);
      const templateUrl = page.url();
      await link.click().catch(() => undefined);
      expect(await page.evaluate(() => (window as unknown as { __pwned?: number }).__pwned)).toBeUndefined();
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'template.png'), fullPage: true });

      // Launched with a value typed over the template's environment, before anything starts.
      await page.goto(templateUrl);
      await page.getByLabel('web: MODE').fill('production');
      await page.getByRole('button', { name: `Launch Hostile ${sfx}` }).click();
      await page.locator('tr[data-service="web"]').getByText('active (running)').waitFor({ timeout: 60_000 });
      const appId = Number(/#\/apps\/(\d+)/.exec(page.url())![1]);
      const services = await t.request<{ name: string; environment: { variable: string; value: string }[] }[]>(
        'GET',
        `/apps/${appId}/services`,
      );
      expect(services.body.find((s) => s.name === 'web')!.environment).toEqual([{ variable: 'MODE', value: 'production', required: null }]);
      await t.request('DELETE', `/apps/${appId}`);
      await context.close();
    });

    test('issues a read token, shown once; signed in with it, what it may not do is disabled with the reason', async () => {
      const { context, page } = await open();
      await signIn(page, ADMIN_TOKEN);
      await section(page, 'Tokens').click();
      await page.getByLabel('Name').fill(`viewer-${sfx}`);
      await page.getByLabel(/^Scope/).selectOption('read');
      await page.getByRole('button', { name: 'Issue token' }).click();
      const token = (await page.getByTestId('issued-token').innerText()).trim();
      expect(token).toMatch(/^plt_/);
      await page
        .getByRole('cell', { name: `viewer-${sfx}`, exact: true })
        .first()
        .waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'tokens.png') });
      // Another one, revoked: it stops working at once.
      await page.getByLabel('Name').fill(`throwaway-${sfx}`);
      await page.getByRole('button', { name: 'Issue token' }).click();
      await page
        .getByRole('cell', { name: `throwaway-${sfx}`, exact: true })
        .first()
        .waitFor();
      const throwaway = (await page.getByTestId('issued-token').innerText()).trim();
      expect((await t.request('GET', '/apps', { token: throwaway })).status).toBe(200);
      await page.getByRole('button', { name: `Revoke throwaway-${sfx}` }).click();
      await page
        .getByRole('row', { name: new RegExp(`throwaway-${sfx}`) })
        .getByText(/^revoked /)
        .waitFor();
      expect((await t.request('GET', '/apps', { token: throwaway })).status).toBe(401);
      await page.getByRole('button', { name: 'Sign out' }).click();

      await signIn(page, token);
      await page.getByText(`viewer-${sfx} (read)`).waitFor();
      await searchTemplates(page, 'demo');
      const launch = page.getByRole('button', { name: `Launch ${templateName}` });
      await launch.waitFor();
      expect(await launch.isDisabled()).toBe(true);
      const reasonId = await launch.getAttribute('aria-describedby');
      expect(await page.locator(`[id="${reasonId}"]`).innerText()).toBe('Needs the write scope; this token has read.');

      await section(page, 'Tokens').click();
      expect(await page.getByRole('button', { name: 'Issue token' }).isDisabled()).toBe(true);
      await page.getByText('Needs the admin scope; this token has read.').first().waitFor();
      await context.close();
    });

    test('catalog: adds a template repo (a broken file is listed with its error), reloads it, adds a registry, disables and edits it', async () => {
      const { context, page } = await open();
      await signIn(page, ADMIN_TOKEN);
      await section(page, 'Catalog').click();
      const repo = makeGitRepo({ 'good.pmx': pmx(`Catalogued ${sfx}`), 'broken.pmx': 'name: [unclosed' });
      await page.getByLabel(/^Git URL/).fill(repo);
      await page.getByRole('button', { name: 'Add repo' }).click();
      const row = page.getByRole('row', { name: new RegExp(repo) });
      await row.waitFor();
      expect(await row.getByRole('cell').nth(1).innerText()).toBe('1');
      await row.getByText(/^broken\.pmx/).waitFor();
      await row.getByRole('button', { name: `Reload ${repo}` }).click();
      await row.getByRole('button', { name: `Reload ${repo}` }).waitFor();

      await page.getByLabel('Name', { exact: true }).fill(`mirror-${sfx}`);
      await page.getByLabel('Endpoint URL').fill('http://127.0.0.1:5999');
      await page.getByLabel('Username (optional)').fill('someone');
      await page.getByLabel(/^Password/).fill('s3cret-password');
      await page.getByRole('button', { name: 'Add registry' }).click();
      const registry = page.getByRole('row', { name: new RegExp(`mirror-${sfx}`) });
      await registry.getByText('set (write-only)').waitFor();
      // Write-only: the form forgets it, and the page shows only that credentials are set.
      expect(await page.getByLabel(/^Password/).inputValue()).toBe('');
      expect(await page.locator('main').innerText()).not.toContain('s3cret-password');
      await registry.getByRole('button', { name: `Disable mirror-${sfx}` }).click();
      await registry.getByRole('button', { name: `Enable mirror-${sfx}` }).waitFor();
      await registry.getByRole('button', { name: `Edit mirror-${sfx}` }).click();
      await page.getByLabel('Registry name').fill(`renamed-${sfx}`);
      await page.getByLabel('Registry endpoint URL').fill('http://127.0.0.1:5998');
      await page.getByRole('button', { name: 'Save registry' }).click();
      const renamed = page.getByRole('row', { name: new RegExp(`renamed-${sfx}`) });
      await renamed.getByText('http://127.0.0.1:5998').waitFor();
      // Left blank, the stored credentials stay.
      await renamed.getByText('set (write-only)').waitFor();
      expect(await seriousViolations(page)).toEqual([]);
      await page.screenshot({ path: path.join(ARTIFACTS, 'catalog.png'), fullPage: true });
      await context.close();
    });

    test('adds a target whose agent is down: it is listed as unreachable, and the rest of the page works', async () => {
      const { context, page } = await open();
      await signIn(page, ADMIN_TOKEN);
      await section(page, 'Targets').click();
      await page.getByText('No targets yet.').waitFor();
      const agentToken = await downAgentToken();
      await page.getByLabel('Name').fill('sleepy');
      await page.getByLabel(/^Agent token/).fill(agentToken);
      await page.getByRole('button', { name: 'Add target' }).click();
      await page.getByRole('cell', { name: /Agent unreachable/ }).waitFor();
      await section(page, 'Apps').click();
      await page.getByRole('heading', { name: 'Apps' }).waitFor();
      await context.close();
    });

    test('deploys a template to a target with per-image overrides, watches its services run, redeploys and deletes it; with the agent down the page says so', async () => {
      const agent = await startAgent({ env: { AGENT_ADAPTER: 'docker', DOCKER_HOST: testDockerHost(), AGENT_STOP_TIMEOUT_SECONDS: '1' } });
      let agentUp = true;
      try {
        const { context, page } = await open();
        await signIn(page, ADMIN_TOKEN);
        await section(page, 'Targets').click();
        await page.getByLabel('Name').fill(`edge-${sfx}`);
        await page.getByLabel(/^Agent token/).fill(agent.token);
        await page.getByRole('button', { name: 'Add target' }).click();
        await page.getByRole('link', { name: `edge-${sfx}` }).click();
        await page.getByText('adapter docker').waitFor();
        await page.getByText('No deployments yet.').waitFor();

        await page.getByLabel('Template', { exact: true }).selectOption({ label: templateName });
        await page.getByLabel('How many of web').fill('2');
        await page.getByLabel('web: GREETING').fill('bonjour');
        await page.getByRole('button', { name: 'Deploy', exact: true }).click();
        const row = page.locator('tr[data-deployment]');
        await row.waitFor({ timeout: 60_000 });
        // Both containers reach running, shown as the agent reports them (the subscription).
        await expectEventually(async () => (await row.getByText('running', { exact: true }).count()) === 2);
        const docker = testDockerClient();
        try {
          // The orchestrator's id the page shows is the container's name.
          const inspected = await docker.inspectContainer(await row.locator('code').first().innerText());
          expect(inspected!.Config.Env).toContain('GREETING=bonjour');
        } finally {
          await docker.close();
        }
        expect(await seriousViolations(page)).toEqual([]);
        await page.screenshot({ path: path.join(ARTIFACTS, 'target.png'), fullPage: true });

        const before = await row.locator('code').allInnerTexts();
        await row.getByRole('button', { name: /^Redeploy / }).click();
        await expectEventually(async () => {
          const now = await row.locator('code').allInnerTexts();
          return now.length === 2 && now.every((id) => !before.includes(id));
        });

        await row.getByRole('button', { name: /^Delete .*…$/ }).click();
        await row.getByRole('button', { name: /and its containers$/ }).click();
        await page.getByText('No deployments yet.').waitFor({ timeout: 30_000 });

        // The agent goes away: the page says so and everything else on it still works.
        await agent.close();
        agentUp = false;
        await page.reload();
        await page
          .getByRole('alert')
          .getByText(/cannot list its deployments/)
          .waitFor({ timeout: 30_000 });
        await page.getByRole('heading', { name: 'Deploy a template' }).waitFor();
        await section(page, 'Apps').click();
        await page.getByRole('heading', { name: 'Apps' }).waitFor();
        await context.close();
      } finally {
        if (agentUp) {
          const listed = await agentRequest<{ id: number }[]>(agent, 'GET', '/deployments');
          for (const d of listed.body ?? []) await agentRequest(agent, 'DELETE', `/deployments/${d.id}`);
          await agent.close();
        }
      }
    }, 180_000);

    test("deploys an app from its page: the target's agent gets the app's services as the images, and the target's page lists it", async () => {
      // The agent's adapter is a recording server standing for an external orchestrator.
      const adapter = await startFakeAdapter();
      const agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
      let appId: number | undefined;
      try {
        const target = await t.request<{ id: number }>('POST', '/deployment_targets', {
          body: { name: `orchestrator-${sfx}`, auth_blob: agent.token },
        });
        expect(target.status).toBe(200);
        const templateId = (await t.request<{ id: number; name: string }[]>('GET', '/templates')).body.find(
          (x) => x.name === `Hostile ${sfx}`,
        )!.id;
        const launched = await t.graphql<{ createApp: { databaseId: number } }>(
          `mutation($templateId: Int!, $name: String!) { createApp(input: { templateId: $templateId, name: $name }) { ... on App { databaseId } } }`,
          { templateId, name: `Shipped ${sfx}` },
        );
        appId = launched.body.data.createApp.databaseId;

        const { context, page } = await open();
        await signIn(page, ADMIN_TOKEN);
        await page.goto(`${t.url}/#/apps/${appId}`);
        await page.getByRole('heading', { name: `Shipped ${sfx}` }).waitFor();
        await page.getByLabel('Target', { exact: true }).selectOption({ label: `orchestrator-${sfx}` });
        await page.getByRole('button', { name: 'Deploy app' }).click();
        await page.getByRole('heading', { name: `orchestrator-${sfx}` }).waitFor();
        await page.locator(`tr[data-deployment="Shipped ${sfx}"]`).waitFor();
        const sent = adapter.calls.find((c) => c.method === 'POST' && c.path === '/v1/services')!.body as {
          name: string;
          source: string;
        }[];
        expect(sent.map((s) => [s.name, s.source])).toEqual([
          ['web', 'platform-test/busybox:latest'],
          ['db', 'platform-test/busybox:latest'],
        ]);
        expect(await seriousViolations(page)).toEqual([]);
        await context.close();
      } finally {
        if (appId !== undefined) await t.request('DELETE', `/apps/${appId}`);
        await agent.close();
        await adapter.close();
      }
    }, 120_000);

    test('edits a target after its agent rotated its password: a wrong token is refused and changes nothing, the new one brings its deployments back', async () => {
      const adapter = await startFakeAdapter();
      const agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
      try {
        const target = await t.request<{ id: number }>('POST', '/deployment_targets', {
          body: { name: `rotating-${sfx}`, auth_blob: agent.token },
        });
        const templateId = (await t.request<{ id: number; name: string }[]>('GET', '/templates')).body.find(
          (x) => x.name === templateName,
        )!.id;
        const deployments = `/deployment_targets/${target.body.id}/deployments`;
        expect((await t.request('POST', deployments, { body: { template_id: templateId } })).status).toBe(200);
        const rotated = await rotateCredentials(agent.dataDir, agent.config.publicUrl, { info: () => undefined });
        // The running agent takes the new password within a second: wait until it refuses the old one.
        await waitFor(
          () => t.request('GET', deployments),
          (res) => res.status === 502,
        );

        const { context, page } = await open();
        await signIn(page, ADMIN_TOKEN);
        await page.goto(`${t.url}/#/targets/${target.body.id}`);
        await page
          .getByRole('alert')
          .getByText(/rejected the credentials/)
          .waitFor();
        await page.getByRole('button', { name: 'Edit target' }).click();
        expect(await page.getByLabel('Target name').inputValue()).toBe(`rotating-${sfx}`);

        const [url, username, , cert] = Buffer.from(rotated.token, 'base64').toString('utf8').split('|');
        await page.getByLabel(/^New agent token/).fill(encodeToken(url, username, 'not-the-password', cert));
        await page.getByRole('button', { name: 'Save target' }).click();
        const form = page.getByRole('form', { name: `Edit rotating-${sfx}` });
        await form
          .getByRole('alert')
          .getByText(/rejected the credentials in its token/)
          .waitFor();
        expect((await t.request('GET', deployments)).status).toBe(502);

        await page.getByLabel(/^New agent token/).fill(rotated.token);
        await page.getByLabel('Target name').fill(`rotated-${sfx}`);
        await page.getByRole('button', { name: 'Save target' }).click();
        await page.getByRole('heading', { name: `rotated-${sfx}`, level: 1 }).waitFor();
        await page.locator(`tr[data-deployment="${templateName}"]`).waitFor();
        expect((await t.request('GET', deployments)).status).toBe(200);
        expect(await seriousViolations(page)).toEqual([]);
        await context.close();
      } finally {
        await agent.close();
        await adapter.close();
      }
    }, 120_000);

    test('dark, in a laptop-narrow window: every section fits the width and axe finds nothing serious (contrast included)', async () => {
      const { context, page } = await open({ colorScheme: 'dark', width: 760 });
      expect(await seriousViolations(page)).toEqual([]);
      await signIn(page, ADMIN_TOKEN);
      for (const name of ['Apps', 'Templates', 'Targets', 'Tokens']) {
        await section(page, name).click();
        await page.locator('main h1').waitFor();
        expect(await page.evaluate(() => document.documentElement.scrollWidth <= window.innerWidth)).toBe(true);
        expect(await seriousViolations(page)).toEqual([]);
      }
      await page.screenshot({ path: path.join(ARTIFACTS, 'tokens-dark-narrow.png') });
      await context.close();
    });

    test('works from the keyboard alone: sign in, move between sections, sign out', async () => {
      const { context, page } = await open();
      await page.getByRole('heading', { name: 'Platform console' }).waitFor();
      await page.keyboard.press('Tab');
      expect(await page.evaluate(() => document.activeElement?.id)).toBe('token');
      await page.keyboard.type(ADMIN_TOKEN);
      await page.keyboard.press('Enter');
      await page.getByRole('heading', { name: 'Apps' }).waitFor();

      /** Tabs until the focused element's text is `name` (at most 20 presses), then presses Enter. */
      const activate = async (name: string) => {
        for (let i = 0; i < 20; i++) {
          await page.keyboard.press('Tab');
          if ((await page.evaluate(() => document.activeElement?.textContent?.trim())) === name) return page.keyboard.press('Enter');
        }
        throw new Error(`Tab never reached "${name}"`);
      };
      await activate('Tokens');
      await page.getByRole('heading', { name: 'API tokens' }).waitFor();
      await activate('Sign out');
      await page.getByRole('heading', { name: 'Platform console' }).waitFor();
      await context.close();
    });

    test('the page ran under its Content-Security-Policy without a violation', () => {
      expect(cspViolations).toEqual([]);
    });
  });
});

/** Polls until `check` holds (30 s at most): for what the page shows after the engine or an agent acts. */
async function expectEventually(check: () => Promise<boolean>, timeoutMs = 30_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('the page never showed what was expected');
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
}

/** A well-formed agent token for an agent that is not running (a closed loopback port). */
async function downAgentToken(): Promise<string> {
  const tls = createSelfSigned('127.0.0.1', ['127.0.0.1'], 1);
  return encodeToken(`https://127.0.0.1:${await freePort()}`, 'user', 'pass', tls.certPem);
}
