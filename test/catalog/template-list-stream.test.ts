import { expect, jest } from '@jest/globals';
import { EventEmitter } from 'node:events';
import { ServerResponse } from 'node:http';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';

/**
 * GET /templates is unpaged by the spec, and a catalog may hold 100,000 templates: the answer is
 * written a page (100) at a time instead of built whole in memory. What a client sees must not
 * change: every template once, in id order, across the pages' seams, as GET /templates/:id shows it.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  // 1,250: twelve full pages and a part, so seams, a short last page and a client slower than the
  // writes (more than 10 waits for it on one answer) are crossed.
  await t.app.orm.em.getConnection().execute(`
    insert into templates (name, description, keywords, type, documentation, authors, source, image_count, image_text)
    select 'tpl-' || n, 'the template ' || n, 'web', 'Default', null, '[]', null, case when n % 3 = 0 then 0 else 1 end, ''
      from generate_series(1, 1250) as n`);
  await t.app.orm.em.getConnection().execute(`
    insert into template_images (template_id, position, name, source, expose, ports, environment)
    select id, 0, 'app', 'example/app:' || id, '["80"]', '[{"container_port": 80, "host_port": null, "proto": "TCP"}]', '[]'
      from templates where image_count = 1`);
});
afterAll(() => t.close());

test('GET /templates streams every template, in id order, as each is shown alone', async () => {
  // The most `close` listeners any answer held while it was written: each wait for the client
  // used to leave one behind (past 10, node warns of a leak).
  let most = 0;
  const spy = jest.spyOn(ServerResponse.prototype, 'on').mockImplementation(function (this: ServerResponse, event, listener) {
    const result = EventEmitter.prototype.on.call(this, event, listener) as ServerResponse;
    if (event === 'close') most = Math.max(most, this.listenerCount('close'));
    return result;
  });
  const res = await t.request<Identified[]>('GET', '/templates').finally(() => spy.mockRestore());
  expect(most).toBeLessThan(6);
  expect(res.status).toBe(200);
  // Written as it is read: no length known before the end.
  expect(res.headers['transfer-encoding']).toBe('chunked');
  expect(res.headers['content-length']).toBeUndefined();
  expect(res.headers['content-type']).toBe('application/json; charset=utf-8');
  const ids = res.body.map((template) => template.id);
  expect(ids).toHaveLength(1250);
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  const alone = await Promise.all(ids.map(async (id) => (await t.request('GET', `/templates/${id}`)).body));
  expect(res.body).toEqual(alone);
});

test('GET /templates of an empty catalog is [], sent with its length', async () => {
  const empty = await startTestApp();
  try {
    const res = await empty.request('GET', '/templates');
    expect(res.status).toBe(200);
    expect(res.text).toBe('[]');
    // One page is whole before the first byte: its length is sent, no chunks (cheaper for both ends).
    expect(res.headers['content-length']).toBe('2');
    expect(res.headers['transfer-encoding']).toBeUndefined();
  } finally {
    await empty.close();
  }
});

test('GET /templates ignores an `after` of the client: the whole list is the answer', async () => {
  const res = await t.request<Identified[]>('GET', '/templates?after=aWQ6MjAw');
  expect(res.body).toHaveLength(1250);
});
