import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { gzipSync } from 'node:zlib';
import type { Browser } from 'playwright-core';
import { launchChromium } from '../../test/helpers/chromium';
import { median } from '../lib/load';
import { BENCH_TOKEN, startService } from '../lib/service';
import { round, type ScenarioResult } from '../lib/types';

const LOADS = 7;
const BUDGET_JS_GZIP_KB = 250;
const BUDGET_INTERACTIVE_MS = 1000;

/**
 * Scenario 8. The web console's first page in Debian's chromium, headless, against the
 * service as npm start runs it: from navigation to the sign-in field accepting input, in a fresh
 * browser context each time (nothing cached); median of 7. Baseline: the same browser and
 * measurement on a page of one input and one tiny script from a bare node:http server. Also the
 * JavaScript the first page loads, gzipped as served, and the time from pressing "Sign in" to the
 * apps page.
 */
export async function consoleFirstPage(dataDir: string): Promise<ScenarioResult> {
  const service = await startService({ dataDir });
  const bare = await startBarePage();
  let browser: Browser | undefined;
  try {
    browser = await launchChromium();
    const initialJsBytes = await initialScriptBytes(service.url);

    const interactive: number[] = [];
    const signedIn: number[] = [];
    const baseline: number[] = [];
    for (let i = 0; i < LOADS; i++) {
      const context = await browser.newContext();
      const page = await context.newPage();
      let began = performance.now();
      await page.goto(service.url);
      const field = page.getByLabel('API token');
      await field.waitFor();
      await field.fill(BENCH_TOKEN);
      interactive.push(performance.now() - began);
      began = performance.now();
      await page.getByRole('button', { name: 'Sign in' }).click();
      await page.getByRole('heading', { name: 'Apps' }).waitFor();
      signedIn.push(performance.now() - began);
      await context.close();

      const bareContext = await browser.newContext();
      const barePage = await bareContext.newPage();
      began = performance.now();
      await barePage.goto(bare.url);
      const bareField = barePage.getByLabel('ready');
      await bareField.waitFor();
      await bareField.fill('x');
      baseline.push(performance.now() - began);
      await bareContext.close();
    }
    const interactiveMs = round(median(interactive), 0);
    const baselineMs = round(median(baseline), 0);
    const jsKb = round(initialJsBytes / 1024, 1);
    return {
      scenario: 8,
      name: "Web console: first page interactive (sign-in field takes input), fresh browser context, and the first page's JavaScript",
      figures: {
        interactiveMsMedian: interactiveMs,
        interactiveMsAll: interactive.map((ms) => round(ms, 0)).join(' / '),
        signInToAppsMsMedian: round(median(signedIn), 0),
        initialJsGzipKb: jsKb,
      },
      baseline: { barePageInteractiveMs: baselineMs },
      ratio: round(interactiveMs / baselineMs, 2),
      target: `interactive ≤ ${BUDGET_INTERACTIVE_MS} ms; initial JS ≤ ${BUDGET_JS_GZIP_KB} KB gzipped`,
      met: interactiveMs <= BUDGET_INTERACTIVE_MS && jsKb <= BUDGET_JS_GZIP_KB,
    };
  } finally {
    await browser?.close();
    bare.close();
    await service.stop();
  }
}

/** The scripts / names (module entry and its preloads), gzipped as the service serves them. */
async function initialScriptBytes(url: string): Promise<number> {
  const html = await (await fetch(`${url}/`)).text();
  const sources = [...html.matchAll(/<(?:script[^>]*\bsrc|link[^>]*rel="modulepreload"[^>]*\bhref)="([^"]+\.js)"/g)].map((m) => m[1]);
  let total = 0;
  for (const src of sources) {
    const res = await fetch(`${url}${src}`, { headers: { 'accept-encoding': 'gzip' } });
    // fetch decodes the body: gzip it again as the service does, to count the bytes on the wire.
    total += gzipSync(Buffer.from(await res.arrayBuffer()), { level: 9 }).length;
  }
  if (sources.length === 0) throw new Error('the console page names no script');
  return total;
}

/** A page of one labelled input, enabled by one small script: what any page costs at least. */
async function startBarePage(): Promise<{ url: string; close(): void }> {
  const page = '<!doctype html><html lang="en"><body><input aria-label="ready" disabled><script src="/a.js"></script></body></html>';
  const script = "document.querySelector('input').disabled = false;";
  const server = createServer((req, res) => {
    const js = req.url === '/a.js';
    res.writeHead(200, { 'content-type': js ? 'text/javascript' : 'text/html; charset=utf-8' }).end(js ? script : page);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, close: () => server.close() };
}
