import { expect, jest } from '@jest/globals';
import { queryRows, withConnection } from '../../src/db/rows';
import { templateViews } from '../../src/catalog/template-read';
import { startTestApp, type TestApp } from '../helpers/app';

/**
 * The hot reads skip MikroORM for the pooled connection (withConnection): a read that fails must
 * still give it back, each text is prepared once per session, and a template read is one statement.
 */
let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

test('a read that fails gives its connection back to the pool', async () => {
  const em = t.app.orm.em;
  for (let i = 0; i < 12; i++) {
    await expect(withConnection(em, (connection) => connection.query('select * from no_such_table'))).rejects.toThrow(
      'relation "no_such_table" does not exist',
    );
  }
  await expect(withConnection(em, (connection) => connection.query<{ one: number }>('select 1 as one'))).resolves.toEqual([{ one: 1 }]);
  // And the service's own reads still get one.
  const res = await t.request('GET', '/templates');
  expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: [] });
});

test('a text is a prepared statement of the session: parsed once, however often it runs there', async () => {
  const text = 'select $1::int + 1 as next';
  const prepared = await withConnection(t.app.orm.em, async (connection) => {
    for (let i = 0; i < 3; i++) expect(await connection.query<{ next: number }>(text, [i])).toEqual([{ next: i + 1 }]);
    return connection.query<{ statement: string }>(`select statement from pg_prepared_statements where statement = $1`, [text]);
  });
  expect(prepared).toEqual([{ statement: text }]);
  // The same text on another call, whichever session it lands on, is still answered.
  await expect(queryRows(t.app.orm.em, text, [41])).resolves.toEqual([{ next: 42 }]);
});

test('a template read is one statement, its images in their order and none as []', async () => {
  const connection = t.app.orm.em.getConnection();
  const [{ id: withImages }] = await connection.execute<{ id: number }[]>(
    `insert into templates (name, type, authors, image_count, image_text) values ('two', 'Default', '[]', 2, '') returning id`,
  );
  const [{ id: bare }] = await connection.execute<{ id: number }[]>(
    `insert into templates (name, type, authors, image_count, image_text) values ('none', 'Default', '[]', 0, '') returning id`,
  );
  // Inserted in the reverse of their positions: the read orders by position, not by id.
  await connection.execute(
    `insert into template_images (template_id, position, name, source, expose, ports, environment)
     values (?, 1, 'web', 'nginx', '["80"]', '[{"container_port": 80, "host_port": 8080, "proto": "TCP"}]', '[{"variable": "A", "value": "1"}]'),
            (?, 0, 'db', 'postgres', '[]', '[]', '[]')`,
    [withImages, withImages],
  );
  // The sessions' class: the pg that MikroORM's knex loaded, whatever copy the test would import.
  const { driver } = t.app.orm.em.getConnection().getKnex().client as { driver: { Client: { prototype: { query(): unknown } } } };
  const statements = jest.spyOn(driver.Client.prototype, 'query');
  const views = await templateViews(t.app.orm.em, [withImages, bare]);
  const count = statements.mock.calls.length;
  statements.mockRestore();
  expect(count).toBe(1);
  expect(views.map((view) => [view.name, view.images.map((image) => image.name)])).toEqual([
    ['two', ['db', 'web']],
    ['none', []],
  ]);
  expect(views[0].images[1]).toMatchObject({
    expose: ['80'],
    ports: [{ hostInterface: null, hostPort: 8080, containerPort: 80, proto: 'TCP' }],
    environment: [{ variable: 'A', value: '1', required: null }],
  });
  expect(views[0].createdAt).toBeInstanceOf(Date);
});
