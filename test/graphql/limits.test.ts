import { startTestApp, type TestApp } from '../helpers/app';

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ GRAPHQL_MAX_DEPTH: '4', GRAPHQL_MAX_ALIASES: '3', GRAPHQL_MAX_TOKENS: '200', GRAPHQL_MAX_COST: '2000' });
});
afterAll(() => t.close());

describe('query limits', () => {
  test('a query within every limit runs', async () => {
    const res = await t.graphql('{ templates { name images { name ports { containerPort } } } }');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ data: { templates: [] } });
  });

  test('too deep: refused with a clear message (400 for graphql-response+json clients)', async () => {
    const query = '{ templateRepos { templates { images { ports { containerPort } } } } }';
    const res = await t.request('POST', '/graphql', { body: { query }, headers: { accept: 'application/graphql-response+json' } });
    expect(res.status).toBe(400);
    expect(res.body.errors).toEqual(expect.arrayContaining([
      expect.objectContaining({ message: 'query depth 5 exceeds the limit of 4', extensions: { code: 'QUERY_TOO_COMPLEX', status: 400, fields: [] } }),
    ]));
  });

  test('depth through fragments counts too', async () => {
    const res = await t.graphql('fragment P on Port { containerPort } fragment I on Image { ports { ...P } } { templateRepos { templates { images { ...I } } } }');
    expect(res.body.errors[0].message).toBe('query depth 5 exceeds the limit of 4');
  });

  test('too many aliases', async () => {
    const res = await t.graphql('{ a: templateTypes { name } b: templateTypes { name } c: templateTypes { name } d: templateTypes { name } }');
    expect(res.body.errors[0].message).toBe('query aliases 4 exceeds the limit of 3');
    expect(res.body.data).toBeUndefined();
  });

  test('too costly: lists multiply', async () => {
    // templateRepos (1) + templates (10) + images (10 × 10) + name, source (2 × 10 × 10 × 10)
    const res = await t.graphql('{ templateRepos { templates { images { name source } } } }');
    expect(res.body.errors).toEqual([expect.objectContaining({ message: 'query cost 2111 exceeds the limit of 2000' })]);
  });

  test('too many tokens', async () => {
    const res = await t.graphql(`{ ${Array.from({ length: 120 }, () => 'templateTypes { name }').join(' ')} }`);
    expect(res.body.errors[0].message).toMatch(/more that 200 tokens/ /* graphql-js spells it so */);
  });
});

describe('introspection', () => {
  test('on by default', async () => {
    const res = await t.graphql('{ __schema { queryType { name } } }');
    expect(res.body).toEqual({ data: { __schema: { queryType: { name: 'Query' } } } });
  });

  test('GRAPHQL_INTROSPECTION=false turns it off', async () => {
    const off = await startTestApp({ GRAPHQL_INTROSPECTION: 'false' });
    try {
      const res = await off.graphql('{ __schema { queryType { name } } }');
      expect(res.body.errors[0].message).toMatch(/introspection/i);
      expect((await off.graphql('{ templateTypes { name } }')).status).toBe(200);
    } finally {
      await off.close();
    }
  });
});
