import type { Browser } from 'playwright-core';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import { describeBrowser, launchChromium } from '../helpers/browser';

/** GraphiQL in a real browser (Debian chromium, headless): set the token header, run a query, see the result. */
describeBrowser('GraphiQL in a browser', () => {
  let t: TestApp;
  let browser: Browser;

  beforeAll(async () => {
    t = await startTestApp();
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
  });

  test('opens /graphql with instructions and no placeholder header; with a token entered, the schema loads and a query runs', async () => {
    const page = await browser.newPage();
    const failedRequests: string[] = [];
    const graphqlStatuses: number[] = [];
    page.on('requestfailed', (request) => failedRequests.push(request.url()));
    page.on('response', (response) => {
      if (response.url().startsWith(`${t.url}/graphql`) && response.request().method() === 'POST') graphqlStatuses.push(response.status());
    });
    await page.goto(`${t.url}/graphql`, { timeout: 60_000 });
    await page.locator('.graphiql-container').first().waitFor({ timeout: 30_000 });

    // What a person sees first: where the token goes, and no made-up header sent as if it were one.
    const query = page.locator('.graphiql-query-editor .graphiql-editor').first();
    await query.getByText('Put yours in the Headers tab').waitFor({ timeout: 30_000 });
    const headers = page.locator('.graphiql-editor-tool .graphiql-editor').last();
    expect((await headers.innerText()).replace(/\s+/g, '')).not.toContain('Bearer');
    // Its introspection on load, without a token, is a 401 (nothing else is sent).
    expect(graphqlStatuses.length).toBeGreaterThan(0);
    expect(new Set(graphqlStatuses)).toEqual(new Set([401]));
    const before = graphqlStatuses.length;

    // The headers editor (open by default): the token.
    await headers.click();
    await page.keyboard.press('ControlOrMeta+A');
    await page.keyboard.press('Delete');
    await page.keyboard.insertText(JSON.stringify({ Authorization: `Bearer ${ADMIN_TOKEN}` }));

    // Re-fetch the schema, as the default query says; the docs explorer lists the types.
    await page.locator('button[aria-label^="Re-fetch GraphQL schema"]').click();
    await page.locator('.graphiql-sidebar button[aria-label="Show Documentation Explorer"]').click();
    const docs = page.locator('.graphiql-doc-explorer');
    await docs.getByText('All Schema Types').waitFor({ timeout: 30_000 });
    const listed = (await docs.innerText()).replace(/\s+/g, ' ');
    for (const type of ['Query', 'Mutation', 'Subscription', 'DeploymentTarget', 'SubscriptionTicket', 'Template'])
      expect(listed).toContain(type);
    expect(graphqlStatuses.slice(before)).toEqual([200]);

    // The query editor: replace its contents with a query, and run it with one click (with a named
    // default query GraphiQL's first run asked for the old name: "Cannot infer operation Me").
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
  }, 150_000);
});
