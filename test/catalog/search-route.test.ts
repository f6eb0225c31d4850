import { expect } from '@jest/globals';
import { rmSync } from 'node:fs';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Named } from '../helpers/bodies';
import { makeGitRepo, pmx } from '../helpers/git';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';
import { freePort } from '../../src/net/free-port';

const describeRegistry = registryAvailable() ? describe : describe.skip;

describeRegistry('GET /search over templates and registries (real docker-registry)', () => {
  let t: TestApp;
  let registry: TestRegistry;
  let repoDir: string;
  let downPort: number;

  beforeAll(async () => {
    // The test registry listens on loopback: an operator's opt-in.
    // Every registry here answers or refuses at once: the timeout is a safety net, not a subject.
    t = await startTestApp({ REGISTRY_TIMEOUT_MS: '30000', REGISTRY_ALLOW_PRIVATE: 'true' });
    registry = await startRegistry({ auth: 'basic' });
    await registry.push('team/wordpress-fpm', 'v1');
    await registry.push('team/wordpress-fpm', 'latest');
    await registry.push('team/redis', 'v7');
    repoDir = makeGitRepo({
      'wp.pmx': pmx('WordPress Stack', { keywords: 'blog, php' }),
      'ghost.pmx': pmx('Ghost', { keywords: 'blog, node' }),
      'pg.pmx': pmx('Postgres', { keywords: 'sql, database' }),
    });
    expect((await t.request('POST', '/template_repos', { body: { name: repoDir } })).status).toBe(200);
    // Docker Hub cannot be reached from here: disable it, as a user without internet would.
    expect((await t.request('PATCH', '/registries/0', { body: { enabled: false } })).status).toBe(204);
    const created = await t.request('POST', '/registries', {
      body: {
        name: 'Team',
        endpoint_url: registry.url,
        username: registry.credentials!.username,
        password: registry.credentials!.password,
      },
    });
    expect(created.status).toBe(201);
    downPort = await freePort();
    await t.request('POST', '/registries', { body: { name: 'Down', endpoint_url: `http://127.0.0.1:${downPort}` } });
  });

  afterAll(async () => {
    await t?.close();
    await registry?.stop();
    rmSync(repoDir, { recursive: true, force: true });
  });

  test('q is required: 400', async () => {
    const res = await t.request('GET', '/search');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: 'q is required', fields: 'q' });
    const blank = await t.request('GET', '/search?q=%20,');
    expect(blank.body).toEqual({ code: 400, message: 'q must contain a search term', fields: 'q' });
  });

  test('templates by name or keyword first, then the registry image; a registry down does not fail it', async () => {
    const res = await t.request<Named[]>('GET', '/search?q=wordpress');
    expect(res.status).toBe(200);
    expect(res.body.map((hit) => hit.name)).toEqual(['WordPress Stack', 'team/wordpress-fpm']);
    const [template, image] = res.body;
    expect(template).toMatchObject({ id: expect.any(Number), source: repoDir, image_count: 2 });
    expect(image).toEqual({
      id: null,
      name: 'team/wordpress-fpm',
      description: null,
      keywords: null,
      source: 'Team',
      type: 'Default',
      image_count: 1,
      created_at: null,
      updated_at: null,
      documentation: null,
      images: [
        {
          id: null,
          category: null,
          name: 'wordpress-fpm',
          source: `${registry.host}/team/wordpress-fpm:latest`,
          description: null,
          type: null,
          expose: [],
          ports: [],
          links: [],
          environment: [],
          volumes: [],
          volumes_from: [],
          command: null,
          restart_policy: null,
        },
      ],
      registry_id: expect.any(Number),
      registry_name: 'Team',
      tags: expect.arrayContaining(['v1', 'latest']),
    });
  });

  test('every word counts, case-insensitively, commas or spaces; templates matching all words come first', async () => {
    const res = await t.request<Named[]>('GET', '/search?q=BLOG,%20sql');
    expect(res.body.map((hit) => hit.name).sort()).toEqual(['Ghost', 'Postgres', 'WordPress Stack']);
    // Ghost is the only one with both words (keywords blog and node); WordPress Stack has one.
    const both = await t.request<Named[]>('GET', '/search?q=node%20blog');
    expect(both.body.map((hit) => hit.name)).toEqual(['Ghost', 'WordPress Stack']);
    // A stop word counts for nothing, and no word is a substring match: "on" finds nothing here.
    expect((await t.request('GET', '/search?q=on')).body).toEqual([]);
  });

  test('the GraphQL result reports the registry that failed', async () => {
    const res = await t.graphql<{ search: unknown }>(
      'query($q: String!) { search(q: $q) { query items { name } errors { registryName message } } }',
      {
        q: 'redis',
      },
    );
    expect(res.body.data.search).toEqual({
      query: 'redis',
      items: [{ name: 'team/redis' }],
      errors: [{ registryName: 'Down', message: expect.stringContaining('Down') }],
    });
  });

  test('sources narrows where GraphQL search looks: templates alone ask no registry (the Down one reports no error), registries alone', async () => {
    const query =
      'query($q: String!, $sources: [SearchSource!]) { search(q: $q, sources: $sources) { items { name } errors { registryName } } }';
    const templates = await t.graphql<{ search: unknown }>(query, { q: 'wordpress', sources: ['TEMPLATES'] });
    expect(templates.body).toEqual({ data: { search: { items: [{ name: 'WordPress Stack' }], errors: [] } } });
    const registries = await t.graphql<{ search: unknown }>(query, { q: 'wordpress', sources: ['REGISTRIES'] });
    expect(registries.body).toEqual({
      data: { search: { items: [{ name: 'team/wordpress-fpm' }], errors: [{ registryName: 'Down' }] } },
    });
    const none = await t.graphql(query, { q: 'wordpress', sources: [] });
    expect(none.body).toEqual({
      data: null,
      errors: [
        expect.objectContaining({
          message: 'sources must name at least one source',
          extensions: expect.objectContaining({ code: 'BAD_REQUEST' }),
        }),
      ],
    });
  });

  test('a disabled registry is not searched', async () => {
    const registries = (await t.request('GET', '/registries')).body as { id: number; name: string }[];
    const team = registries.find((r) => r.name === 'Team')!;
    await t.request('PATCH', `/registries/${team.id}`, { body: { enabled: false } });
    const res = await t.request('GET', '/search?q=redis');
    expect(res.body).toEqual([]);
    await t.request('PATCH', `/registries/${team.id}`, { body: { enabled: true } });
  });

  test('full text is served by the GIN index on the search vector, the typo fallback by the trigram indexes', async () => {
    const conn = t.app.orm.em.getConnection();
    await conn.execute('set enable_seqscan = off');
    const plan = async (sql: string) =>
      (await conn.execute<{ 'QUERY PLAN': string }[]>(`explain ${sql}`)).map((r) => r['QUERY PLAN']).join('\n');
    try {
      expect(
        await plan(
          "select id from templates where search_vector @@ (to_tsquery('english'::regconfig, 'press | press:*') || to_tsquery('english'::regconfig, 'blog'))",
        ),
      ).toMatch(/templates_search_vector_idx/);
      expect(await plan("select id from templates where 'wrodpress' <% name or 'wrodpress' <% keywords")).toMatch(
        /templates_(name|keywords)_trgm_idx/,
      );
    } finally {
      await conn.execute('set enable_seqscan = on');
    }
  });
});
