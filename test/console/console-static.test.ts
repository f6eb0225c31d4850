import { expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gunzipSync } from 'node:zlib';
import { request } from 'undici';
import { startTestApp, type TestApp } from '../helpers/app';

const ROOT = path.resolve(__dirname, '../..');

describe('the web console is served at / from its built assets', () => {
  let t: TestApp;

  beforeAll(async () => {
    execFileSync(process.execPath, [path.join(ROOT, 'scripts', 'build.js'), '--console', '--if-stale'], { stdio: 'inherit' });
    t = await startTestApp();
  }, 120_000);

  afterAll(async () => {
    await t?.close();
  });

  test('/ is the page, with no token needed, a strict CSP, and revalidated on every load', async () => {
    const res = await request(`${t.url}/`);
    const html = await res.body.text();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/html; charset=utf-8');
    expect(res.headers['cache-control']).toBe('no-cache');
    const csp = String(res.headers['content-security-policy']);
    expect(csp).toContain("default-src 'none'");
    expect(csp).toContain("script-src 'self'");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).not.toContain('unsafe-inline');
    expect(res.headers['x-content-type-options']).toBe('nosniff');
    // Every script and style is a file of its own: nothing inline for the CSP to refuse.
    expect(html).not.toMatch(/<script(?![^>]*\bsrc=)[^>]*>/);
    expect(html).not.toMatch(/<style\b/);
    expect(html).toMatch(/<script type="module" crossorigin src="\/assets\/index-[\w-]+\.js"><\/script>/);
  });

  test('assets are named by content hash and cached for good; gzip when asked; HEAD has no body', async () => {
    const assets = readdirSync(path.join(ROOT, 'dist', 'console', 'assets'));
    const script = assets.find((name) => name.endsWith('.js'))!;
    const plain = await request(`${t.url}/assets/${script}`);
    const body = Buffer.from(await plain.body.arrayBuffer());
    expect(plain.statusCode).toBe(200);
    expect(plain.headers['content-type']).toBe('text/javascript; charset=utf-8');
    expect(plain.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    const gzipped = await request(`${t.url}/assets/${script}`, { headers: { 'accept-encoding': 'gzip, br' } });
    expect(gzipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(await gzipped.body.arrayBuffer())).equals(body)).toBe(true);

    const head = await request(`${t.url}/assets/${script}`, { method: 'HEAD' });
    expect(head.statusCode).toBe(200);
    expect(Number(head.headers['content-length'])).toBe(body.length);
    expect(await head.body.text()).toBe('');
  });

  test('an unknown asset is a JSON 404, and the API paths are as they were (a token still needed)', async () => {
    const missing = await t.request('GET', '/assets/nope.js', { token: null });
    expect(missing.status).toBe(404);
    expect(missing.body).toEqual({ code: 404, message: 'no such path: /assets/nope.js', fields: '' });
    expect((await t.request('GET', '/apps', { token: null })).status).toBe(401);
    expect((await t.request('GET', '/apps')).status).toBe(200);
    expect((await t.request('POST', '/', { token: null })).status).toBe(404);
  });

  test('without a built console, / says how to build it', async () => {
    const bare = await startTestApp({ CONSOLE_DIR: mkdtempSync(path.join(os.tmpdir(), 'no-console-')) });
    try {
      const res = await bare.request('GET', '/', { token: null });
      expect(res.status).toBe(404);
      expect(res.body).toEqual({ code: 404, message: 'the web console is not built here: run npm run build', fields: '' });
    } finally {
      await bare.close();
    }
  });
});
