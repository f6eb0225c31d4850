import { expect } from '@jest/globals';
import { withConnection } from '../../src/db/rows';
import { startTestApp, type TestApp } from '../helpers/app';

/**
 * A template read borrows one pooled connection for both its queries (withConnection). A read
 * that fails must still give it back: the pool holds 10, and a connection kept by each failure
 * would leave the eleventh request waiting for one forever.
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
