import { expect } from '@jest/globals';
import { getIntrospectionQuery } from 'graphql';
import { TemplateService } from '../../src/catalog/template.service';
import { bareImage } from '../../src/parts/image';
import { DeploymentTarget } from '../../src/targets/deployment-target.entity';
import { startTestApp, type TestApp } from '../helpers/app';

const TOO_COMPLEX = { code: 'QUERY_TOO_COMPLEX', status: 400, fields: [] };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({
    GRAPHQL_MAX_DEPTH: '4',
    GRAPHQL_MAX_ALIASES: '3',
    GRAPHQL_MAX_TOKENS: '200',
    GRAPHQL_MAX_COST: '2000',
    GRAPHQL_MAX_SPREADS: '20',
  });
});
afterAll(() => t.close());

/** `count` templates of two images each, through the domain service, as a repo load makes them. */
async function seedTemplates(app: TestApp, count: number): Promise<void> {
  const em = app.app.orm.em.fork();
  const templates = new TemplateService(em);
  for (let n = 0; n < count; n++) {
    templates.build(
      {
        name: `T${n}`,
        description: null,
        keywords: null,
        type: 'Default',
        documentation: null,
        authors: [],
        source: null,
        images: ['web', 'db'].map((name) => ({
          ...bareImage(name, `example/${name}`),
          ports: [{ host_port: null, container_port: 80, proto: 'TCP' }],
        })),
      },
      null,
    );
  }
  await em.flush();
}

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
    expect(res.body).toEqual({
      errors: [{ message: 'query depth 5 exceeds the limit of 4', locations: [{ line: 1, column: 1 }], extensions: TOO_COMPLEX }],
    });
  });

  test('depth through fragments counts too', async () => {
    const res = await t.graphql(
      'fragment P on Port { containerPort } fragment I on Image { ports { ...P } } { templateRepos { templates { images { ...I } } } }',
    );
    expect(res.body.errors?.[0]?.message).toBe('query depth 5 exceeds the limit of 4');
  });

  test('too many aliases, counted through fragments (a fragment spread twice counts twice)', async () => {
    const res = await t.graphql(
      'fragment F on Query { a: templateTypes { name } b: templateTypes { name } } { ...F x: me { username } ... { ...F } }',
    );
    expect(res.body).toEqual({
      errors: [expect.objectContaining({ message: 'query aliases 5 exceeds the limit of 3', extensions: TOO_COMPLEX })],
    });
  });

  test('too many tokens', async () => {
    const res = await t.graphql(`{ ${Array.from({ length: 120 }, () => 'templateTypes { name }').join(' ')} }`);
    expect(res.body.errors?.[0]?.message).toMatch(/more that 200 tokens/ /* graphql-js spells it so */);
  });

  test('too many fragment spreads once expanded', async () => {
    // 2 + 4 + 8 + 16 = 30 spreads from 4 fragments of two spreads each.
    const fragments = [0, 1, 2, 3].map((i) => `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`).join(' ');
    const res = await t.graphql(`{ ...F0 } ${fragments} fragment F4 on Query { me { username } }`);
    expect(res.body).toEqual({
      errors: [
        expect.objectContaining({
          message: expect.stringMatching(/^query fragment spreads \d+ exceeds the limit of 20$/),
          extensions: TOO_COMPLEX,
        }),
      ],
    });
  });
});

describe('cost', () => {
  // Default depth and aliases; a low cost limit.
  let c: TestApp;
  beforeAll(async () => {
    c = await startTestApp({ GRAPHQL_MAX_COST: '2000' });
  });
  afterAll(() => c.close());

  // A page of n templates: 1 + n × (nodes 1 + images 1 + 10 images × (name, source: 2)) = 1 + 22n
  const page = 'query Page($n: Int) { templatesConnection(first: $n) { nodes { images { name source } } } }';

  test('variables are read: `first: $n` costs $n items', async () => {
    expect((await c.graphql(page, { n: 5 })).body).toEqual({ data: { templatesConnection: { nodes: [] } } });
    // 1 + 22 × 100 = 2201: before, $n counted as 10 whatever it was (221).
    const res = await c.graphql(page, { n: 100 });
    expect(res.body).toEqual({
      errors: [expect.objectContaining({ message: 'query cost 2201 exceeds the limit of 2000', extensions: TOO_COMPLEX })],
    });
    // Without the variable: the page's default size (20).
    expect((await c.graphql(page)).status).toBe(200);
  });

  test('a field costs what it says: a search by its limit, a journal by its capped limit, nodes by its ids', async () => {
    // The verdict of the cost check, which runs before anything (an unknown app is told only after).
    const cost = async (query: string) => {
      const message = (await c.graphql(query)).body.errors?.[0]?.message ?? '';
      return message.startsWith('query cost') ? message : 'under the limit';
    };
    // 1 + limit × (items 1 + 2 (templates and images) × name 1)
    expect(await cost('{ search(q: "x", limit: 600) { items { name } } }')).toBe('under the limit');
    expect(await cost('{ search(q: "x", limit: 700) { items { name } } }')).toBe('query cost 2101 exceeds the limit of 2000');
    // 1 + min(limit, 10 000) × message 1: the default limit is 1000.
    expect(await cost('{ appJournal(appId: 1) { message } }')).toBe('under the limit');
    expect(await cost('{ appJournal(appId: 1, limit: 999999) { message } }')).toBe('query cost 10001 exceeds the limit of 2000');
    // 1 + ids × (id 1 + services (1 + 10 × (name 1 + app (1 + name 1))))
    const ids = (n: number) => JSON.stringify(Array.from({ length: n }, (_, i) => Buffer.from(`App:${i + 1}`).toString('base64')));
    expect(await cost(`{ nodes(ids: ${ids(50)}) { id ... on App { services { name app { name } } } } }`)).toBe('under the limit');
    expect(await cost(`{ nodes(ids: ${ids(100)}) { id ... on App { services { name app { name } } } } }`)).toBe(
      'query cost 3201 exceeds the limit of 2000',
    );
  });

  test('fragments on a union are costed inside (a mutation result), and nothing runs', async () => {
    // createApp 1 + services (1 + 10 × (app 1 + services (1 + 10 × (app 1 + services (1 + 10 × (app 1 + services (1 + 10 × name))))))) + code 1
    const bomb = `mutation { createApp(input: {image: "platform-test/busybox:latest"}) { ...Result } }
      fragment Result on CreateAppResult { ... on App { services { app { services { app { ...Deeper } } } } } ... on Error { code } }
      fragment Deeper on App { services { app { services { name } } } }`;
    const res = await c.graphql(bomb);
    // Estimated at 19 before, whatever the services held.
    expect(res.body).toEqual({
      errors: [expect.objectContaining({ message: 'query cost 12223 exceeds the limit of 2000', extensions: TOO_COMPLEX })],
    });
    expect((await c.graphql('{ apps { id } }')).body).toEqual({ data: { apps: [] } });
  });

  test('a list that returns every row costs its real size', async () => {
    // templates: 1 + n × (1 + 10 images × (name, source, ports 1 + 10 × 1)) = 1 + 131n
    const query = '{ templates { images { name source ports { containerPort } } } }';
    expect((await c.graphql(query)).status).toBe(200);
    await seedTemplates(c, 20);
    const res = await c.graphql(query);
    // Counted as 10 before: 1311, accepted whatever the table held.
    expect(res.body).toEqual({
      errors: [expect.objectContaining({ message: 'query cost 2621 exceeds the limit of 2000', extensions: TOO_COMPLEX })],
    });
    const paged = await c.graphql<{ templatesConnection: { nodes: unknown[] } }>(
      '{ templatesConnection(first: 5) { nodes { images { name source ports { containerPort } } } } }',
    );
    expect(paged.body.data.templatesConnection.nodes).toHaveLength(5);
  });

  test('deploymentTargets costs its real size, read from the list the field answers with', async () => {
    // 1 + n × (deployments 1 + 10 × (id, name)) = 1 + 21n
    const query = '{ deploymentTargets { deployments { id name } } }';
    expect((await c.graphql(query)).body).toEqual({ data: { deploymentTargets: [] } });
    const em = c.app.orm.em.fork();
    for (let n = 0; n < 100; n++) {
      em.create(DeploymentTarget, {
        name: `target ${n}`,
        endpointUrl: `https://10.0.0.${n}:3001`,
        sealedAuthBlob: 'not opened: nothing runs',
        agentVersion: null,
        adapterVersion: null,
        adapterType: null,
        metadataAt: null,
        metadataError: null,
      });
    }
    await em.flush();
    expect((await c.graphql(query)).body).toEqual({
      errors: [expect.objectContaining({ message: 'query cost 2101 exceeds the limit of 2000', extensions: TOO_COMPLEX })],
    });
    const names = await c.graphql<{ deploymentTargets: { name: string }[] }>('{ deploymentTargets { name } }');
    expect(names.body.data.deploymentTargets.map((target) => target.name)).toEqual(Array.from({ length: 100 }, (_, n) => `target ${n}`));
  });
});

describe('introspection', () => {
  test('on by default; the standard introspection query passes the default limits, exempt from depth', async () => {
    const defaults = await startTestApp();
    try {
      const res = await defaults.graphql<{ __schema: { queryType: unknown; types: unknown[] } }>(getIntrospectionQuery());
      expect(res.status).toBe(200);
      expect(res.body.errors).toBeUndefined();
      expect(res.body.data.__schema.queryType).toEqual({ name: 'Query', kind: 'OBJECT' });
      expect(res.body.data.__schema.types.length).toBeGreaterThan(50);
      // Introspection is costed (each of its lists as 10 items): 30 copies of a deep one are not.
      const copies = Array.from({ length: 30 }, (_, i) => `i${i}: __schema { types { fields { args { type { name } } } } }`).join(' ');
      const flood = await defaults.graphql(`{ ${copies} }`);
      expect(flood.body).toEqual({
        errors: [expect.objectContaining({ message: 'query cost 63360 exceeds the limit of 50000', extensions: TOO_COMPLEX })],
      });
    } finally {
      await defaults.close();
    }
  });

  test('GRAPHQL_INTROSPECTION=false turns it off, and hides "Did you mean" suggestions', async () => {
    const off = await startTestApp({ GRAPHQL_INTROSPECTION: 'false' });
    try {
      const res = await off.graphql('{ __schema { queryType { name } } }');
      expect(res.body.errors?.[0]?.message).toMatch(/introspection/i);
      expect((await off.graphql('{ templateTypes { name } }')).status).toBe(200);

      const typo = await off.graphql('{ templatez { nam } }');
      expect(typo.body.errors).toEqual([expect.objectContaining({ message: 'Cannot query field "templatez" on type "Query".' })]);
      const badArgument = await off.graphql('{ app(idd: 1) { name } }');
      expect(badArgument.body.errors?.map((e) => e.message)).toContain('Unknown argument "idd" on field "Query.app".');
      const badVariable = await off.graphql('mutation($i: CreateRegistryInput!) { createRegistry(input: $i) { __typename } }', {
        i: { nam: 'x', endpointUrl: 'https://x' },
      });
      expect(JSON.stringify(badVariable.body)).not.toMatch(/Did you mean/);
      expect(badVariable.body.errors?.[0]?.message).toMatch(/^Variable "\$i" got invalid value/);
    } finally {
      await off.close();
    }
    // With introspection on, the suggestions help.
    expect((await t.graphql('{ templatez { name } }')).body.errors?.[0]?.message).toMatch(
      /^Cannot query field "templatez" on type "Query". Did you mean .*"templates"/,
    );
  });
});
