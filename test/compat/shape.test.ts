import { shapeDiff } from './shape';

describe('the shape comparer', () => {
  test('same keys and JSON types, recursively, elements against the first', () => {
    const fixture = { id: 1, name: 'x', tags: ['a'], app: { id: 2 }, rows: [{ n: 1 }], maybe: null };
    expect(
      shapeDiff(fixture, {
        id: 5,
        name: 'y',
        tags: ['b', 'c'],
        app: { id: 3, extra: true },
        rows: [{ n: 2 }, { n: 3 }],
        maybe: 'anything',
      }),
    ).toEqual([]);
    expect(shapeDiff(fixture, { id: '5', name: 'y', tags: [1], app: {}, rows: [{ n: 2 }, {}] })).toEqual([
      '$.id: expected number, got string ("5")',
      '$.tags[]: expected string, got number (1)',
      '$.app.id: missing',
      '$.rows[].n: missing',
      '$.maybe: missing',
    ]);
    expect(shapeDiff([{ a: 1 }], [])).toEqual(["$: empty, so its elements' shape cannot be checked against the fixture's"]);
    expect(shapeDiff({ meta: { healthy: true } }, { meta: {} }, ['$.meta.healthy'])).toEqual([]);
  });
});
