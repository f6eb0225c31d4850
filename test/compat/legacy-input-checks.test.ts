import { expect } from '@jest/globals';
import { request } from 'undici';
import { startTestApp, type TestApp } from '../helpers/app';
import type { ErrorBody } from '../helpers/bodies';

type LegacyError = ErrorBody & { errors: Record<string, string[]> };

/**
 * The legacy listener applies the main listener's input rules (README "Limits") at its door: no
 * NUL character and no text over its field's maximum, in the path, the query or the body.
 */
describe('the legacy listener', () => {
  let t: TestApp;

  async function ui<T = unknown>(method: string, pathname: string, body?: unknown) {
    const res = await request(`${t.legacyUrl}${pathname}`, {
      method: method as never,
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
  }

  beforeAll(async () => {
    t = await startTestApp({ LEGACY_UI_PORT: '0', LEGACY_UI_SCOPE: 'write' });
  });

  afterAll(async () => {
    await t?.close();
  });

  describe("input checks at the legacy listener's door (path, query and body)", () => {
    test('a NUL in the query is a 400 naming it', async () => {
      const message = 'q must not contain a NUL character';
      expect(await ui<LegacyError>('GET', '/search.json?q=word%00press&type=template')).toEqual({
        status: 400,
        body: { code: 400, message, fields: 'q', errors: { q: [message] } },
      });
    });

    test('a NUL in a path parameter is a 400 naming it', async () => {
      const message = 'id must not contain a NUL character';
      expect(await ui<LegacyError>('GET', '/apps/1%00.json')).toEqual({
        status: 400,
        body: { code: 400, message, fields: 'id', errors: { id: [message] } },
      });
    });

    test('a NUL in the body is a 400 naming it, and nothing is stored', async () => {
      const message = 'name must not contain a NUL character';
      const before = (await ui<unknown[]>('GET', '/template_repos.json')).body.length;
      expect(await ui<LegacyError>('POST', '/template_repos.json', { name: `/tmp/templates\u0000` })).toEqual({
        status: 400,
        body: { code: 400, message, fields: 'name', errors: { name: [message] } },
      });
      expect((await ui<unknown[]>('GET', '/template_repos.json')).body.length).toBe(before);
    });

    test('an over-long body value is a 422 naming it, and nothing is stored', async () => {
      const message = 'name is longer than 255 characters';
      const before = (await ui<unknown[]>('GET', '/registries.json')).body.length;
      expect(await ui<LegacyError>('POST', '/registries.json', { name: 'n'.repeat(256), endpoint_url: 'https://r.example' })).toEqual({
        status: 422,
        body: { code: 422, message, fields: 'name', errors: { name: [message] } },
      });
      expect((await ui<unknown[]>('GET', '/registries.json')).body.length).toBe(before);
    });

    test('an over-long query value is a 422 naming it', async () => {
      const message = 'q is longer than 1024 characters';
      expect(await ui<LegacyError>('GET', `/search.json?q=${'w'.repeat(1025)}&type=template`)).toEqual({
        status: 422,
        body: { code: 422, message, fields: 'q', errors: { q: [message] } },
      });
    });
  });
});
