import { existsSync } from 'node:fs';
import { chromium, type Browser } from 'playwright-core';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';

const CHROMIUM = '/usr/bin/chromium';

function browserAvailable(): boolean {
  const found = existsSync(CHROMIUM);
  if (!found && (process.env.CI === 'true' || process.env.REQUIRE_BROWSER === '1')) {
    throw new Error(`${CHROMIUM} is missing: install the Debian package chromium`);
  }
  return found;
}

const describeBrowser = browserAvailable() ? describe : describe.skip;

/** GraphiQL in a real browser (Debian chromium, headless): set the token header, run a query, see the result. */
describeBrowser('GraphiQL in a browser', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp();
    browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: ['--headless', '--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
        '--disable-background-networking', '--disable-component-update', '--disable-sync'],
    });
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  test('opens /graphql, takes the Authorization header, runs a query and shows its result', async () => {
    const page = await browser.newPage();
    const failedRequests: string[] = [];
    page.on('requestfailed', (request) => failedRequests.push(request.url()));
    await page.goto(`${t.url}/graphql`);
    await page.locator('.graphiql-container').first().waitFor({ timeout: 30_000 });

    // The headers editor: replace its contents with the token.
    await page.getByText('Headers', { exact: true }).click();
    const headers = page.locator('.graphiql-editor-tool .graphiql-editor').last();
    await headers.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${ADMIN_TOKEN}` }));

    // The query editor: replace its contents with a query.
    const query = page.locator('.graphiql-query-editor .graphiql-editor').first();
    await query.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText('{ templateTypes { name default } }');

    await page.locator('.graphiql-execute-button').click();
    const result = page.locator('.graphiql-response');
    await result.getByText('"Wordpress"').waitFor({ timeout: 30_000 });
    // The editor renders spaces as non-breaking ones: fold all white space.
    const text = (await result.innerText()).replace(/\s+/g, ' ');
    expect(text).toContain('{ "name": "Default", "default": true }');
    expect(text).not.toContain('bearer token is required');
    // Nothing is fetched from outside this service (no CDN).
    expect(failedRequests.filter((url) => !url.startsWith(t.url))).toEqual([]);
    await page.close();
  }, 90_000);
});
