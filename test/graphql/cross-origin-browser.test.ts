import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser, Page } from 'playwright-core';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import { describeBrowser, launchChromium } from '../helpers/browser';

/** A frontend's origin: a blank page on a port of its own. */
async function startOrigin(): Promise<{ url: string; server: Server }> {
  const server = createServer((_req, res) =>
    res.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>frontend</title>'),
  );
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
}

/**
 * A page on another origin calling the service from Chromium: real preflights, real CORS checks
 * by the browser. The allowed origin is in CORS_ORIGINS; the other is not.
 */
describeBrowser('a frontend on another origin, in Chromium', () => {
  let t: TestApp;
  let browser: Browser;
  let allowed: Awaited<ReturnType<typeof startOrigin>>;
  let other: Awaited<ReturnType<typeof startOrigin>>;

  beforeAll(async () => {
    [allowed, other] = await Promise.all([startOrigin(), startOrigin()]);
    t = await startTestApp({ CORS_ORIGINS: allowed.url });
    browser = await launchChromium();
  }, 60_000);

  afterAll(async () => {
    await browser?.close();
    await t?.close();
    for (const origin of [allowed, other]) origin?.server.close();
  });

  /** What a frontend does: GraphQL and REST with its token in a header (both need a preflight). */
  function callApi(page: Page) {
    return page.evaluate(
      async ({ api, token }) => {
        const attempt = async (run: () => Promise<unknown>) => {
          try {
            return { ok: await run() };
          } catch (error) {
            return { failed: String(error) };
          }
        };
        return {
          graphql: await attempt(async () =>
            (
              await fetch(`${api}/graphql`, {
                method: 'POST',
                headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
                body: JSON.stringify({ query: '{ me { username } }' }),
              })
            ).json(),
          ),
          rest: await attempt(async () => {
            const res = await fetch(`${api}/registries/0`, { headers: { authorization: `Bearer ${token}` } });
            return { status: res.status, name: ((await res.json()) as { name: string }).name };
          }),
        };
      },
      { api: t.url, token: ADMIN_TOKEN },
    );
  }

  test('a listed origin calls GraphQL and REST with its token', async () => {
    const page = await browser.newPage();
    await page.goto(allowed.url);
    expect(await callApi(page)).toEqual({
      graphql: { ok: { data: { me: { username: 'admin' } } } },
      rest: { ok: { status: 200, name: 'Docker Hub' } },
    });
    await page.close();
  }, 60_000);

  test('an origin not listed is refused by the browser', async () => {
    const page = await browser.newPage();
    const messages: string[] = [];
    page.on('console', (message) => messages.push(message.text()));
    await page.goto(other.url);
    expect(await callApi(page)).toEqual({
      graphql: { failed: 'TypeError: Failed to fetch' },
      rest: { failed: 'TypeError: Failed to fetch' },
    });
    expect(messages.join('\n')).toContain('has been blocked by CORS policy');
    await page.close();
  }, 60_000);

  test('EventSource from a listed origin: a ticket from a mutation, then the stream with it', async () => {
    const page = await browser.newPage();
    await page.goto(allowed.url);
    const received = await page.evaluate(
      async ({ api, token }) => {
        const res = await fetch(`${api}/graphql`, {
          method: 'POST',
          headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
          body: JSON.stringify({ query: 'mutation { createSubscriptionTicket { ... on SubscriptionTicket { ticket } } }' }),
        });
        const { ticket } = ((await res.json()) as { data: { createSubscriptionTicket: { ticket: string } } }).data.createSubscriptionTicket;
        const url = `${api}/graphql?${new URLSearchParams({ query: '{ me { username } }', ticket })}`;
        return new Promise<{ next?: unknown; error?: string }>((resolve) => {
          const source = new EventSource(url);
          source.addEventListener('next', (event) => {
            source.close();
            resolve({ next: JSON.parse(String(event.data)) });
          });
          source.onerror = () => {
            source.close();
            resolve({ error: `readyState ${source.readyState}` });
          };
        });
      },
      { api: t.url, token: ADMIN_TOKEN },
    );
    expect(received).toEqual({ next: { data: { me: { username: 'admin' } } } });
    await page.close();
  }, 60_000);
});
