import { expect } from '@jest/globals';
import os from 'node:os';
import { renameSync, rmSync } from 'node:fs';
import { VERSION } from '../../src/version';
import { startTestApp, type TestApp } from '../helpers/app';
import type { ErrorBody, Identified, Named, RepoBody } from '../helpers/bodies';
import { commitFiles, makeGitRepo, pmx } from '../helpers/git';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

describe('registries', () => {
  test('a fresh database has Docker Hub', async () => {
    const res = await t.request('GET', '/registries');
    expect(res.status).toBe(200);
    expect(res.body).toEqual([{ id: 0, name: 'Docker Hub', endpoint_url: 'https://index.docker.io', enabled: true }]);
  });

  test('create (201), read, patch (204), delete (204)', async () => {
    const created = await t.request<Identified>('POST', '/registries', { body: { name: 'Local', endpoint_url: 'http://127.0.0.1:5000' } });
    expect(created.status).toBe(201);
    expect(created.body).toEqual({ id: expect.any(Number), name: 'Local', endpoint_url: 'http://127.0.0.1:5000', enabled: true });
    const id = created.body.id;

    expect((await t.request('GET', `/registries/${id}`)).body).toEqual(created.body);

    const patched = await t.request('PATCH', `/registries/${id}`, { body: { name: 'Local 2', enabled: false } });
    expect(patched.status).toBe(204);
    expect(patched.text).toBe('');
    expect((await t.request('GET', `/registries/${id}`)).body).toEqual({ ...created.body, name: 'Local 2', enabled: false });

    expect((await t.request('DELETE', `/registries/${id}`)).status).toBe(204);
    const gone = await t.request('GET', `/registries/${id}`);
    expect(gone.status).toBe(404);
    expect(gone.body).toEqual({ code: 404, message: `registry ${id} not found`, fields: 'id' });
  });

  test.each([
    ['ftp://example.com', 'endpoint_url must be an http or https URL'],
    ['not a url', 'endpoint_url is not a URL'],
    ['http://user:PASSWORD@[bad', 'endpoint_url is not a URL'],
    ['', "endpoint_url can't be blank"],
  ])('endpoint_url %j is 422 naming the field', async (endpoint, message) => {
    const res = await t.request('POST', '/registries', { body: { name: 'Bad', endpoint_url: endpoint } });
    expect(res.status).toBe(422);
    expect(res.body).toEqual({ code: 422, message, fields: 'endpoint_url' });
  });

  test('a blank name is 422', async () => {
    const res = await t.request('POST', '/registries', { body: { name: ' ', endpoint_url: 'https://r.example' } });
    expect(res.body).toEqual({ code: 422, message: "name can't be blank", fields: 'name' });
  });

  test('credentials are accepted, stored encrypted and never returned', async () => {
    const created = await t.request<Identified>('POST', '/registries', {
      body: { name: 'Private', endpoint_url: 'https://private.example', username: 'bob', password: 'hunter2-secret' },
    });
    expect(created.status).toBe(201);
    expect(created.text).not.toContain('hunter2');
    const rows: { sealed_secret: string }[] = await t.app.orm.em
      .getConnection()
      .execute('select sealed_secret from registries where id = ?', [created.body.id]);
    expect(rows[0].sealed_secret).toMatch(/^v1\./);
    expect(rows[0].sealed_secret).not.toContain('hunter2');
    const gql = await t.graphql<unknown>(`{ registry(id: ${created.body.id}) { hasCredentials } }`);
    expect(gql.body.data).toEqual({ registry: { hasCredentials: true } });
    expect((await t.request('GET', '/registries')).text).not.toContain('hunter2');
  });

  test('patching an unknown registry is 404', async () => {
    const res = await t.request('PATCH', '/registries/4242', { body: { name: 'x' } });
    expect(res.body).toEqual({ code: 404, message: 'registry 4242 not found', fields: 'id' });
  });
});

describe('template repos and templates', () => {
  // An extra field beside the spec's: which files did not load, where and why.
  const LOAD_ERRORS = [
    { file: 'broken.pmx', line: 1, message: expect.stringMatching(/^not valid YAML: Flow sequence/) },
    { file: 'invalid.pmx', line: null, message: "name: can't be blank; images[0].source: can't be blank" },
  ];
  let repoDir: string;
  let repoId: number;

  beforeAll(() => {
    repoDir = makeGitRepo({
      'wordpress.pmx': pmx('WordPress', { keywords: 'wordpress, Blog , php' }),
      'nested/dir/ghost.pmx': pmx('Ghost', { keywords: 'blog,node' }),
      'broken.pmx': 'name: [unclosed',
      'invalid.pmx': 'images:\n  - name: a\n',
      'README.md': 'not a template',
    });
  });
  afterAll(() => rmSync(repoDir, { recursive: true, force: true }));

  test('POST /template_repos clones the repo and loads every valid .pmx', async () => {
    const res = await t.request<RepoBody>('POST', '/template_repos', { body: { name: repoDir } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: expect.any(Number), name: repoDir, template_count: 2, updated_at: ISO, load_errors: LOAD_ERRORS });
    repoId = res.body.id;
    expect((await t.request('GET', '/template_repos')).body).toEqual([res.body]);
  });

  test('files that fail are reported in the load errors', async () => {
    const res = await t.graphql<{
      templateRepo: { loadErrors: { file: string; message: string }[]; templates: unknown[] };
    }>(`{ templateRepo(id: ${repoId}) { loadErrors { file line message } templates { name source } } }`);
    const repo = res.body.data.templateRepo;
    expect(repo.loadErrors).toEqual(LOAD_ERRORS);
    expect(repo.loadErrors.map((e) => e.file).sort()).toEqual(['broken.pmx', 'invalid.pmx']);
    expect(repo.loadErrors.find((e) => e.file === 'invalid.pmx')?.message).toMatch(/name/);
    expect(repo.templates).toEqual(
      expect.arrayContaining([
        { name: 'WordPress', source: repoDir },
        { name: 'Ghost', source: repoDir },
      ]),
    );
    expect(repo.templates).toHaveLength(2);
  });

  test('GET /templates and /templates/:id give the full Template shape', async () => {
    const list = await t.request<Named[]>('GET', '/templates');
    expect(list.status).toBe(200);
    const wordpress = list.body.find((tpl) => tpl.name === 'WordPress');
    expect(wordpress).toEqual({
      id: expect.any(Number),
      name: 'WordPress',
      description: 'WordPress description',
      keywords: 'wordpress, Blog , php',
      source: repoDir,
      type: 'Default',
      image_count: 2,
      created_at: ISO,
      updated_at: ISO,
      documentation: '# WordPress\nRun it.\n',
      images: [
        {
          id: expect.any(Number),
          category: 'Web',
          name: 'web',
          source: 'platform-test/busybox:latest',
          description: null,
          type: 'Default',
          expose: ['80'],
          ports: [{ host_interface: null, host_port: 8080, container_port: 80, proto: 'TCP' }],
          links: [{ service: 'db', alias: 'database' }],
          environment: [{ variable: 'MODE', value: 'prod', required: null }],
          volumes: [{ host_path: '/tmp/data', container_path: '/data' }],
          volumes_from: [{ service: 'db' }],
          command: 'httpd -f -p 80',
          restart_policy: null,
        },
        {
          id: expect.any(Number),
          category: 'DB',
          name: 'db',
          source: 'platform-test/busybox:latest',
          description: null,
          type: 'Default',
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
    });
    const one = await t.request('GET', `/templates/${wordpress?.id}`);
    expect(one.body).toEqual(wordpress);
  });

  test('GET /keywords counts trimmed, lower-cased keywords per template', async () => {
    const res = await t.request('GET', '/keywords');
    expect(res.status).toBe(200);
    expect(res.body).toEqual(
      expect.arrayContaining([
        { keyword: 'blog', count: 2 },
        { keyword: 'wordpress', count: 1 },
        { keyword: 'php', count: 1 },
        { keyword: 'node', count: 1 },
      ]),
    );
    expect(res.body).toHaveLength(4);
  });

  test('a duplicate repo name is 409', async () => {
    const res = await t.request<RepoBody>('POST', '/template_repos', { body: { name: repoDir } });
    expect(res.status).toBe(409);
    expect(res.body).toEqual({ code: 409, message: `template repo ${repoDir} already exists`, fields: 'name' });
  });

  test('a blank or unusable repo name is 422 and creates nothing', async () => {
    const blank = await t.request<ErrorBody>('POST', '/template_repos', { body: { name: '' } });
    expect(blank.status).toBe(422);
    expect(blank.body.fields).toBe('name');
    const missing = await t.request('POST', '/template_repos', { body: { name: '/no/such/dir/anywhere' } });
    expect(missing.status).toBe(422);
    expect((await t.request('GET', '/template_repos')).body).toHaveLength(1);
  });

  test('an unreachable git URL is 502 and creates nothing', async () => {
    const res = await t.request('POST', '/template_repos', { body: { name: `file://${os.tmpdir()}/no/such/repo.git` } });
    expect(res.body).toEqual({ code: 502, message: expect.any(String), fields: expect.any(String) });
    expect((await t.request('GET', '/template_repos')).body).toHaveLength(1);
  });

  test('reload replaces the templates and keeps count and updated_at true', async () => {
    const before = (await t.request<RepoBody[]>('GET', '/template_repos')).body[0];
    commitFiles(repoDir, { 'redis.pmx': pmx('Redis', { keywords: 'cache' }) });
    const res = await t.request<RepoBody>('POST', `/template_repos/${repoId}`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: repoId, name: repoDir, template_count: 3, updated_at: ISO, load_errors: LOAD_ERRORS });
    expect(Date.parse(res.body.updated_at)).toBeGreaterThan(Date.parse(before.updated_at));
    const names = (await t.request<Named[]>('GET', '/templates')).body.map((tpl) => tpl.name).sort();
    expect(names).toEqual(['Ghost', 'Redis', 'WordPress']);
  });

  test('a failed reload keeps the previous templates and answers 502', async () => {
    const moved = `${repoDir}-moved`;
    renameSync(repoDir, moved);
    try {
      const res = await t.request('POST', `/template_repos/${repoId}`);
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ code: 502, message: expect.any(String), fields: '' });
      expect((await t.request('GET', '/templates')).body).toHaveLength(3);
      expect((await t.request<RepoBody[]>('GET', '/template_repos')).body[0].template_count).toBe(3);
    } finally {
      renameSync(moved, repoDir);
    }
  });

  test('DELETE /templates/:id removes one template (204) and the repo count follows', async () => {
    const redis = (await t.request<Named[]>('GET', '/templates')).body.find((tpl) => tpl.name === 'Redis')!;
    expect((await t.request('DELETE', `/templates/${redis.id}`)).status).toBe(204);
    expect((await t.request('GET', `/templates/${redis.id}`)).status).toBe(404);
    expect((await t.request<RepoBody[]>('GET', '/template_repos')).body[0].template_count).toBe(2);
  });

  test('deleting a repo deletes its templates', async () => {
    expect((await t.request('DELETE', `/template_repos/${repoId}`)).status).toBe(204);
    expect((await t.request('GET', '/template_repos')).body).toEqual([]);
    expect((await t.request('GET', '/templates')).body).toEqual([]);
    expect((await t.request('POST', `/template_repos/${repoId}`)).status).toBe(404);
  });
});

describe('types, platform, user', () => {
  test('GET /types lists the template types with exactly one default', async () => {
    const res = await t.request<{ name: string; default: boolean }[]>('GET', '/types');
    expect(res.status).toBe(200);
    expect(res.body).toHaveLength(27);
    expect(res.body[0]).toEqual({ name: 'Default', default: true });
    expect(res.body[1]).toEqual({ name: 'Wordpress', default: false });
    expect(res.body.filter((e) => e.default)).toHaveLength(1);
  });

  test('GET /platform reports the api, ui and agent versions', async () => {
    const res = await t.request('GET', '/platform');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      'platform-agent': { versions: expect.any(Object) },
      'platform-ui': { versions: {} },
      'platform-api': { versions: { [VERSION]: expect.stringMatching(/^node v/) } },
    });
  });

  test('GET /user is the calling token and the repos it can save to', async () => {
    const res = await t.request('GET', '/user');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      username: 'admin',
      email: null,
      repos: [],
      template_repo_providers: [
        { id: 1, name: 'git' },
        { id: 2, name: 'GitHub' },
        { id: 3, name: 'Local directory' },
      ],
    });
  });
});
