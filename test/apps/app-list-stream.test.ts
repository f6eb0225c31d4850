import { expect } from '@jest/globals';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';

/**
 * GET /apps is unpaged by the spec: with 10,000 apps the whole list built in memory took the
 * service past 650 MB. It is written a page (100) at a time; what a client sees must not change:
 * every app once, in id order, across the pages' seams, as GET /apps/:id shows it (its
 * categories, and its services' failures in its errors).
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
  const db = t.app.orm.em.getConnection();
  // 201 rows: two full pages and one app on a third.
  await db.execute(`
    insert into apps (name, from_source, documentation, errors, warnings)
    select 'app-' || n, 'Template: Stack', 'docs ' || n, '[]', case when n % 7 = 0 then '[{"message": "ignored key"}]' else '[]' end::jsonb
      from generate_series(1, 201) as n`);
  await db.execute(`insert into app_categories (app_id, name, position) select id, 'Web', 0 from apps where id % 2 = 0`);
  await db.execute(`
    insert into services (app_id, position, name, internal_name, image_name, from_image, ports, expose, environment, volumes, last_error)
    select a.id, s, 'svc' || s, 'app-' || a.id || '-svc' || s, 'svc' || s, 'example/svc:' || s, '[]', '[]', '[]', '[]',
           case when (a.id + s) % 5 = 0 then '{"code": 502, "message": "the engine could not start it", "fields": ""}'::jsonb end
      from apps a cross join generate_series(0, 1) as s`);
});
afterAll(() => t.close());

test('GET /apps streams every app, in id order, as each is shown alone', async () => {
  const res = await t.request<Identified[]>('GET', '/apps');
  expect(res.status).toBe(200);
  expect(res.headers['transfer-encoding']).toBe('chunked');
  expect(res.headers['content-length']).toBeUndefined();
  const ids = res.body.map((app) => app.id);
  expect(ids).toHaveLength(201);
  expect(ids).toEqual([...ids].sort((a, b) => a - b));
  const alone = await Promise.all(ids.map(async (id) => (await t.request('GET', `/apps/${id}`)).body));
  expect(res.body).toEqual(alone);
  // The seeded failures and warnings are in it, so the comparison covers them.
  expect(alone.filter((app) => (app as { errors: unknown[] }).errors.length > 0).length).toBeGreaterThan(40);
});
