import { expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from '../helpers/app';
import { describeDocker, TEST_IMAGE } from '../helpers/docker';
import { freePort } from '../../src/net/free-port';
import { makeGitRepo } from '../helpers/git';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';
import { startAgent, startFakeAdapter, type RunningAgent } from '../agent/agent-harness';
import { cleanupEngine, instanceId, suffix, waitFor } from '../apps/fixtures';
import { shapeDiff } from './shape';
import type { ErrorBody } from '../helpers/bodies';

// Byte-for-byte copies of the original web UI's expected bodies (panamax-ui spec/support/fixtures).
const FIXTURES = path.join(__dirname, 'fixtures');
const fixture = (name: string): unknown => JSON.parse(readFileSync(path.join(FIXTURES, name), 'utf8'));

/** The answer has the shape of the fixture of that call (test/compat/shape.ts). */
function expectShape(body: unknown, name: string, ignore: string[] = []): void {
  expect({ fixture: name, problems: shapeDiff(fixture(name), body, ignore) }).toEqual({ fixture: name, problems: [] });
}

interface UiResponse<T = unknown> {
  status: number;
  headers: Record<string, string | string[] | undefined>;
  /** The parsed JSON, typed as the call's test reads it (the shape itself is checked by expectShape). */
  body: T;
  text: string;
}

/** A record as fetched, to be sent back edited. */
type Fields = Record<string, unknown>;
/** The legacy 422: the error body plus the form's errors per attribute. */
type FormErrorBody = ErrorBody & { errors: Record<string, string[]> };
interface UiService {
  id: number;
  name: string;
  sub_state: string;
  default_exposed_ports: unknown[];
  links: Fields[];
  environment: (Fields & { variable: string })[];
  docker_status: unknown;
}

/** The one element a test needs from a list: a clear failure when it is missing. */
function must<T>(value: T | undefined, what: string): T {
  if (value === undefined) throw new Error(`${what} is missing`);
  return value;
}

/**
 * The original web UI's calls, replayed as it
 * sends them: ActiveResource's `.json` paths, Rails' sorted, form-escaped query strings, bodies of
 * whole records with form strings ("8080", "1", "false") and the read-only members it was given,
 * and no credentials. Against the legacy listener of a real service (PostgreSQL, Docker engine,
 * git, docker-registry, a real agent); each answer is checked against the fixture of its call.
 * The agent's adapter is a recording test server: it stands for an external orchestrator.
 */
describeDocker('the original UI against the legacy listener', () => {
  let t: TestApp;
  let instance: string;
  let registry: TestRegistry | undefined;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;
  let repoDir: string;
  let saveDir: string;
  let remote: string;
  const sfx = suffix();
  const ids: Record<string, number> = {};

  /** One call as ActiveResource makes it. */
  async function ui<T = unknown>(
    method: string,
    pathname: string,
    options: { query?: Record<string, string>; body?: unknown } = {},
  ): Promise<UiResponse<T>> {
    const query = options.query
      ? `?${Object.keys(options.query)
          .sort()
          .map((k) => `${encodeURIComponent(k)}=${encodeURIComponent(options.query![k]).replace(/%20/g, '+')}`)
          .join('&')}`
      : '';
    const headers: Record<string, string> =
      method === 'GET' || method === 'DELETE' ? { accept: 'application/json' } : { 'content-type': 'application/json' };
    const body = method === 'POST' || method === 'PUT' ? JSON.stringify(options.body ?? {}) : undefined;
    const res = await request(`${t.legacyUrl}${pathname}${query}`, { method: method as never, headers, body });
    const text = await res.body.text();
    let parsed: unknown;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      parsed = text;
    }
    return { status: res.statusCode, headers: res.headers, body: parsed as T, text };
  }

  /** ActiveResource's create: the id from the body, else from Location's last segment. */
  const createdId = (res: UiResponse): number => {
    expect(res.status).toBeGreaterThanOrEqual(200);
    expect(res.status).toBeLessThan(300);
    const fromLocation = Number(
      String(res.headers.location ?? '')
        .split('/')
        .pop()
        ?.replace(/\.\w+$/, ''),
    );
    expect(fromLocation).toEqual(expect.any(Number));
    const body = res.body;
    if (typeof body === 'object' && body !== null && 'id' in body) expect(body.id).toBe(fromLocation);
    return fromLocation;
  };

  const ok = (res: UiResponse) =>
    expect({ status: res.status, body: res.status < 300 ? 'ok' : res.body }).toEqual({ status: expect.any(Number), body: 'ok' });

  beforeAll(async () => {
    t = await startTestApp({ REGISTRY_ALLOW_PRIVATE: 'true', LEGACY_UI_PORT: '0', LEGACY_UI_SCOPE: 'deploy', GITHUB_TOKEN: 'ghp_server' });
    instance = await instanceId(t);
    const port = await freePort();
    repoDir = makeGitRepo({
      'wordpress.pmx': [
        `name: WordPress ${sfx}`,
        'description: WordPress with a database',
        'keywords: wordpress, blog',
        'type: Wordpress',
        'documentation: |',
        '  # WordPress',
        'images:',
        `  - name: wp-${sfx}`,
        '    description: Wordpress',
        `    source: ${TEST_IMAGE}`,
        '    category: Web Tier',
        '    command: sleep 3600',
        `    ports: [{host_port: ${port}, container_port: 80}]`,
        '    expose: [80]',
        `    links: [{service: db-${sfx}, alias: DB}]`,
        '    environment: [{variable: DB_PASSWORD, value: pass@word01}]',
        '    volumes: [{container_path: /var/www}]',
        `  - name: db-${sfx}`,
        `    source: ${TEST_IMAGE}`,
        '    category: DB Tier',
        '    command: sleep 3600',
        '    environment: [{variable: MYSQL_ROOT_PASSWORD, value: secret}]',
      ].join('\n'),
    });
    saveDir = mkdtempSync(path.join(os.tmpdir(), 'ui-save-'));
    remote = path.join(saveDir, 'remote.git');
    execFileSync('git', ['clone', '-q', '--bare', repoDir, remote]);
    adapter = await startFakeAdapter();
    agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
  });

  afterAll(async () => {
    await t?.close();
    await cleanupEngine(instance);
    await registry?.stop();
    await agent?.close();
    await adapter?.close();
    rmSync(repoDir, { recursive: true, force: true });
    rmSync(saveDir, { recursive: true, force: true });
  });

  test('no credentials: the legacy listener serves, the main one still asks for a token', async () => {
    expect((await ui('GET', '/apps.json')).status).toBe(200);
    expect((await request(`${t.url}/apps.json`)).statusCode).toBe(401);
  });

  test('sources (R1–R4), registries (G1–G5), keywords and types (S2, S3)', async () => {
    ok(await ui('POST', '/template_repos.json', { body: { name: repoDir } }));
    ok(await ui('POST', '/template_repos.json', { body: { name: remote } }));
    const repos = await ui<{ id: number; name: string }[]>('GET', '/template_repos.json');
    expectShape(repos.body, 'template_repos_representation.json');
    ids.repo = must(
      repos.body.find((r) => r.name === repoDir),
      'the repo',
    ).id;
    const reload = await ui('POST', `/template_repos/${ids.repo}/reload.json`, { body: { id: String(ids.repo) } });
    ok(reload);

    // Docker Hub cannot be reached from here: untick it, as the registries page does.
    const hub = await ui<Fields>('GET', '/registries/0.json');
    ok(await ui('PUT', '/registries/0.json', { body: { ...hub.body, id: '0', enabled: '0' } }));
    expect((await ui<{ enabled: boolean }>('GET', '/registries/0.json')).body.enabled).toBe(false);
    if (registryAvailable()) {
      registry = await startRegistry({ auth: 'none' });
      await registry.push('team/wordpress', 'latest');
      await registry.push('team/wordpress', '4.0');
      ids.registry = createdId(await ui('POST', '/registries.json', { body: { name: `Team ${sfx}`, endpoint_url: registry.url } }));
    }
    expectShape((await ui('GET', '/registries.json')).body, 'registries_representation.json');
    // A 422 carries {errors: {field: [messages]}} for the form, beside code, message and fields.
    const invalid = await ui<ErrorBody>('POST', '/registries.json', { body: { name: 'bad', endpoint_url: 'ftp://x' } });
    expect(invalid.status).toBe(422);
    expect(invalid.body).toEqual({
      code: 422,
      message: expect.any(String),
      fields: 'endpoint_url',
      errors: { endpoint_url: [invalid.body.message] },
    });

    expectShape((await ui('GET', '/keywords.json')).body, 'keywords_representation.json');
    expectShape((await ui('GET', '/types.json')).body, 'types_representation.json');
  });

  test('search (S1) as an object of arrays per type, template details (T1), repository tags (S4)', async () => {
    const templates = await ui<{ templates: { id: number; name: string }[] }>('GET', '/search.json', {
      query: { limit: '40', q: 'wordpress', type: 'template' },
    });
    expect(Object.keys(templates.body).sort()).toEqual(['q', 'templates']);
    // The UI reads name, source, type and environment of a template's images, not their ports.
    expectShape(templates.body, 'search_results.json', ['$.remote_images', '$.local_images', '$.templates[].images[].ports']);
    ids.template = must(
      templates.body.templates.find((tpl) => tpl.name === `WordPress ${sfx}`),
      'the template',
    ).id;

    const local = await ui<{ local_images: unknown }>('GET', '/search.json', { query: { limit: '40', q: 'busybox', type: 'local_image' } });
    expect(Object.keys(local.body).sort()).toEqual(['local_images', 'q']);
    expect(local.body.local_images).toEqual(
      expect.arrayContaining([
        { id: expect.stringMatching(/^[0-9a-f]{64}$/), source: TEST_IMAGE.split(':')[0], tags: expect.arrayContaining([TEST_IMAGE]) },
      ]),
    );

    const remote = await ui<{ errors: unknown }>('GET', '/search.json', { query: { limit: '40', q: 'wordpress', type: 'remote_image' } });
    expect(Object.keys(remote.body).sort()).toEqual(['errors', 'q', 'remote_images']);
    expect(remote.body.errors).toEqual([]);
    if (registry) {
      // The UI reads source, description, is_official, is_trusted, star_count, registry_id, registry_name (§3).
      const unread = [
        'id',
        'image_id',
        'name',
        'tag',
        'keywords',
        'type',
        'links',
        'ports',
        'expose',
        'environment',
        'volumes',
        'created_at',
        'updated_at',
      ];
      expectShape(remote.body, 'search_results.json', ['$.templates', '$.local_images', ...unread.map((k) => `$.remote_images[].${k}`)]);
      const tags = await ui<{ tags: string[] }>('GET', '/repositories/team/wordpress.json', {
        query: { local: 'false', registry_id: String(ids.registry) },
      });
      expect({ ...tags.body, tags: [...tags.body.tags].sort() }).toEqual({ id: 'team/wordpress', tags: ['4.0', 'latest'] });
    }
    const localTags = await ui('GET', `/repositories/${TEST_IMAGE.split(':')[0]}.json`, { query: { local: 'true', registry_id: '' } });
    expect(localTags.body).toEqual({ id: TEST_IMAGE.split(':')[0], tags: expect.arrayContaining(['latest']) });

    const template = await ui('GET', `/templates/${ids.template}.json`);
    expectShape(template.body, 'template_representation.json', ['$.images[].ports']);
  });

  test('apps (A1–A6, A9–A11): create three ways, list, read, rename, rebuild, export', async () => {
    ids.app = createdId(await ui('POST', '/apps.json', { body: { template_id: String(ids.template) } }));
    ids.imageApp = createdId(await ui('POST', '/apps.json', { body: { image: TEST_IMAGE, registry_id: '' } }));
    const compose = `services:\n  solo-${sfx}:\n    image: ${TEST_IMAGE}\n    command: sleep 3600\n`;
    ids.composeApp = createdId(
      await ui('POST', '/apps.json', { body: { compose_yaml: compose, compose_yaml_file: { original_filename: 'docker-compose.yml' } } }),
    );

    // The template's app: its services have categories (the image and compose apps' have none).
    const list = await ui<{ id: number }[]>('GET', '/apps.json');
    expect(list.body.map((a) => a.id)).toEqual(expect.arrayContaining([ids.app, ids.imageApp, ids.composeApp]));
    expectShape(
      list.body.filter((a) => a.id === ids.app),
      'app_list_representation.json',
    );
    const app = await ui<Fields>('GET', `/apps/${ids.app}.json`);
    expectShape(app.body, 'app_representation.json');
    ok(await ui('PUT', `/apps/${ids.app}.json`, { body: { ...app.body, name: `Blog ${sfx}`, documentation: 'Our blog' } }));
    expect((await ui('GET', `/apps/${ids.app}.json`)).body).toMatchObject({ name: `Blog ${sfx}`, documentation: 'Our blog' });
    ok(await ui('PUT', `/apps/${ids.composeApp}/rebuild.json`));

    const yaml = await ui<{ compose_yaml: string }>('GET', `/apps/${ids.app}/compose_yml.json`);
    expect(Object.keys((parse(yaml.body.compose_yaml) as { services: Fields }).services).sort()).toEqual([`db-${sfx}`, `wp-${sfx}`]);
    const text = await ui('GET', `/apps/${ids.app}/compose_yml.yaml`);
    expect(text.headers['content-type']).toMatch(/yaml/);
    expect(text.text).toBe(yaml.body.compose_yaml);
    const gist = await ui<ErrorBody>('POST', `/apps/${ids.app}/compose_gist.json`);
    expect(gist.status).toBe(501);
    expect(gist.body.message).toMatch(/gist is not offered/);
  });

  test('services (A12–A17) with the keys the UI reads, and categories (C1–C4)', async () => {
    const services = await ui<UiService[]>('GET', `/apps/${ids.app}/services.json`);
    expectShape(services.body, 'services_representation.json');
    const wp = must(
      services.body.find((s) => s.name === `wp-${sfx}`),
      'the wp service',
    );
    const single = await waitFor(
      () => ui<UiService>('GET', `/apps/${ids.app}/services/${wp.id}.json`),
      (r) => r.body.sub_state === 'running',
    );
    // The test image exposes no port, so its default_exposed_ports is [] (its elements' type cannot be checked).
    expect(single.body.default_exposed_ports).toEqual([]);
    expectShape(single.body, 'service_representation_1.json', ['$.default_exposed_ports']);
    expectShape(single.body, 'service_representation_2.json', ['$.default_exposed_ports']);
    expect(single.body.links).toEqual([{ service_id: expect.any(Number), service_name: `db-${sfx}`, alias: 'DB' }]);
    expect(single.body.docker_status).toEqual(expect.any(Object));

    // C2, C1, C3: a category made, read, and moved (position as a string).
    const category = await ui('POST', `/apps/${ids.app}/categories.json`, { body: { name: 'Cache Tier' } });
    ids.category = createdId(category);
    expect(category.body).toEqual({ id: ids.category, name: 'Cache Tier', position: expect.any(Number) });
    const c1 = await ui<Fields>('GET', `/apps/${ids.app}/categories/${ids.category}.json`);
    ok(
      await ui('PUT', `/apps/${ids.app}/categories/${ids.category}.json`, {
        body: { ...c1.body, id: String(ids.category), position: '7' },
      }),
    );
    expect((await ui<{ position: number }>('GET', `/apps/${ids.app}/categories/${ids.category}.json`)).body.position).toBe(7);

    // A14: added from the search dialog, with the category's row as fetched.
    const added = await ui('POST', `/apps/${ids.app}/services.json`, {
      body: {
        name: `cache-${sfx}`,
        from: TEST_IMAGE,
        status: 'loading',
        categories: [{ id: String(ids.category), name: 'Cache Tier', position: '7' }],
      },
    });
    ids.service = createdId(added);
    expect(added.body).toMatchObject({ id: ids.service, name: `cache-${sfx}` });

    // A15: the whole fetched service sent back, edited in the form: strings, _deleted rows, read-only members.
    const fetched = (await ui<UiService>('GET', `/apps/${ids.app}/services/${wp.id}.json`)).body;
    const edited = {
      ...fetched,
      description: 'the front',
      expose: ['80', '8080'],
      environment: [
        ...fetched.environment.map((e) => ({ ...e, _deleted: '0' })),
        { variable: 'WP_DEBUG', value: '1', _deleted: '0' },
        { variable: 'GONE', value: 'x', _deleted: '1' },
      ],
      links: fetched.links.map((l) => ({ ...l, _deleted: '0' })),
      categories: [{ id: String(ids.category), position: '2' }],
      restart: 'false',
    };
    ok(await ui('PUT', `/apps/${ids.app}/services/${wp.id}.json`, { body: edited }));
    const after = (await ui<UiService>('GET', `/apps/${ids.app}/services/${wp.id}.json`)).body;
    expect(after).toMatchObject({
      description: 'the front',
      expose: [80, 8080],
      categories: [{ id: ids.category, name: 'Cache Tier', position: 2 }],
    });
    expect(after.environment.map((e) => e.variable)).toEqual(['DB_PASSWORD', 'WP_DEBUG']);
    // A 422 on the service form: errors per attribute.
    const bad = await ui<FormErrorBody>('PUT', `/apps/${ids.app}/services/${wp.id}.json`, {
      body: { ...after, categories: [{ id: '999999', position: '1' }] },
    });
    expect(bad.status).toBe(422);
    expect(bad.body.errors).toEqual({ categories: [bad.body.message] });

    // A17, A8: journals with an empty cursor, as the first poll sends.
    const journal = await ui<unknown[]>('GET', `/apps/${ids.app}/services/${wp.id}/journal.json`, { query: { cursor: '' } });
    expect(journal.status).toBe(200);
    expect(Array.isArray(journal.body)).toBe(true);
    for (const entry of journal.body)
      expect(entry).toEqual({
        __CURSOR: expect.any(String),
        __REALTIME_TIMESTAMP: expect.stringMatching(/^\d+$/),
        SYSLOG_IDENTIFIER: expect.any(String),
        MESSAGE: expect.any(String),
        stream: expect.any(String),
      });
    expect((await ui('GET', `/apps/${ids.app}/journal.json`, { query: { cursor: '' } })).status).toBe(200);

    ok(await ui('DELETE', `/apps/${ids.app}/services/${ids.service}.json`));
    expect((await ui('GET', `/apps/${ids.app}/services/${ids.service}.json`)).status).toBe(404);
    ok(await ui('DELETE', `/apps/${ids.app}/categories/${ids.category}.json`));
  });

  test('save as template (A7, T2, T2a, T3) and the user (U1, U2)', async () => {
    const app = (await ui('GET', `/apps/${ids.app}.json`)).body;
    const preview = await ui<{ template: string }>('POST', `/apps/${ids.app}/template.json`, {
      query: {
        app_id: String(ids.app),
        author: 'me@example.com',
        description: 'My blog',
        documentation: 'Docs',
        keywords: 'blog',
        name: `Blog ${sfx}`,
        repo: remote,
        type: 'Wordpress',
      },
      body: app,
    });
    expect(preview.status).toBe(200);
    expect(parse(preview.body.template)).toMatchObject({ name: `Blog ${sfx}`, description: 'My blog' });

    const created = await ui('POST', '/templates.json', {
      body: {
        name: `Blog ${sfx}`,
        description: 'My blog',
        keywords: 'blog',
        authors: ['me@example.com'],
        type: 'Wordpress',
        app_id: String(ids.app),
        documentation: 'Docs',
        source: 'owner/repo',
        short_description: 'My blog',
        last_updated_on: 'today',
        image_count_label: '2 images',
        icon_src: 'x.svg',
      },
    });
    ids.savedTemplate = createdId(created);
    expect((await ui('GET', '/images.json', { query: { template_id: '' } })).status).toBe(404);
    const template = (await ui('GET', `/templates/${ids.savedTemplate}.json`)).body;
    ok(
      await ui('POST', `/templates/${ids.savedTemplate}/save.json`, { query: { file_name: `blog_${sfx}`, repo: remote }, body: template }),
    );
    expect(execFileSync('git', ['log', '-1', '--format=%s', 'main'], { cwd: remote, encoding: 'utf8' }).trim()).toBe(
      `Save template blog_${sfx}.pmx`,
    );

    // No e-mail yet (null): the save-template page then shows its form, which sends U2.
    const user = await ui<Fields>('GET', '/user.json');
    expect(user.body).toEqual({
      email: null,
      repos: expect.arrayContaining([repoDir, remote]),
      github_username: 'legacy-ui',
      github_access_token_present: true,
    });
    ok(await ui('PUT', '/user.json', { body: { ...user.body, email: 'me@example.com', subscribe: 'false' } }));
    expectShape((await ui('GET', '/user.json')).body, 'user_representation.json');
    expect((await ui<{ email: string }>('GET', '/user.json')).body.email).toBe('me@example.com');
    const token = await ui<FormErrorBody>('PUT', '/user.json', { body: { ...user.body, github_access_token: 'ghp_mine' } });
    expect(token.status).toBe(422);
    expect(token.body.errors).toEqual({ github_access_token: [token.body.message] });
  });

  test('local images (I1–I3)', async () => {
    const images = await ui<{ id: string; tags: string[] }[]>('GET', '/local_images.json');
    expectShape(images.body, 'images_representation.json');
    const busybox = must(
      images.body.find((i) => i.tags.includes(TEST_IMAGE)),
      'the test image',
    );
    expect((await ui('GET', `/local_images/${busybox.id}.json`)).body).toEqual(busybox);
    // Removing an image is not tried on the shared test image; an unknown one is 404 with a message.
    const gone = await ui<ErrorBody>('DELETE', `/local_images/${'0'.repeat(64)}.json`);
    expect(gone.status).toBe(404);
    expect(gone.body.message).toEqual(expect.any(String));
  });

  test('deployment targets and deployments (D1–D10)', async () => {
    ids.target = createdId(await ui('POST', '/deployment_targets.json', { body: { name: `Staging ${sfx}`, auth_blob: agent.token } }));
    // Not a fixture member the UI reads: the refresh's health flag (§3 "unused").
    expectShape((await ui('GET', '/deployment_targets.json')).body, 'deployment_targets_representation.json', [
      '$[].metadata.adapter_is_healthy',
    ]);
    expectShape((await ui('GET', `/deployment_targets/${ids.target}.json`)).body, 'deployment_target_representation.json', [
      '$.metadata.adapter_is_healthy',
    ]);
    const refresh = await ui('POST', `/deployment_targets/${ids.target}/metadata/refresh.json`, { body: {} });
    expectShape(refresh.body, 'deployment_target_refresh_representation.json', ['$.metadata.adapter_is_healthy']);

    const deploy = await ui('POST', `/deployment_targets/${ids.target}/deployments.json`, {
      body: {
        resource_type: 'Template',
        resource_id: String(ids.template),
        display_name: 'Unnamed Deployment',
        override: {
          images: [{ name: `wp-${sfx}`, environment: [{ variable: 'DB_PASSWORD', value: 'other' }], deployment: { count: '2' } }],
        },
      },
    });
    ids.deployment = createdId(deploy);
    expectShape(deploy.body, 'deployment_representation.json');
    const sent = adapter.calls.filter((c) => c.method === 'POST').pop()!.body as { name: string; deployment: { count: number } }[];
    expect(sent.find((s) => s.name === `wp-${sfx}`)?.deployment.count).toBe(2);
    expectShape((await ui('GET', `/deployment_targets/${ids.target}/deployments.json`)).body, 'deployments_representation.json');
    const one = await ui<Fields & { status: { services: unknown } }>(
      'GET',
      `/deployment_targets/${ids.target}/deployments/${ids.deployment}.json`,
    );
    expect(one.body.status.services).toEqual(expect.arrayContaining([{ id: expect.any(String), actualState: expect.any(String) }]));
    const redeploy = await ui<{ id: number }>('POST', `/deployment_targets/${ids.target}/deployments/${ids.deployment}/redeploy.json`, {
      body: { ...one.body, display_name: 'Unnamed Deployment' },
    });
    ok(redeploy);
    expect(redeploy.body).toEqual(expect.any(Object));
    ok(await ui('DELETE', `/deployment_targets/${ids.target}/deployments/${redeploy.body.id}.json`));

    // "Deploy to Target" from an app page: the app's services are the images.
    const app = await ui('POST', `/deployment_targets/${ids.target}/deployments.json`, {
      body: { resource_type: 'App', resource_id: String(ids.app), display_name: 'Unnamed Deployment', override: {} },
    });
    ok(await ui('DELETE', `/deployment_targets/${ids.target}/deployments/${createdId(app)}.json`));
    const services = (await ui<{ name: string; from: string }[]>('GET', `/apps/${ids.app}/services.json`)).body;
    const sentForApp = adapter.calls.filter((c) => c.method === 'POST').pop()!.body as { name: string; source: string }[];
    expect(sentForApp.map((s) => [s.name, s.source]).sort()).toEqual(services.map((s) => [s.name, s.from]).sort());
    const unknown = await ui<FormErrorBody>('POST', `/deployment_targets/${ids.target}/deployments.json`, {
      body: { resource_type: 'Job', resource_id: '1' },
    });
    expect(unknown.status).toBe(422);
    expect(unknown.body.errors).toEqual({ resource_type: [unknown.body.message] });
    ok(await ui('DELETE', `/deployment_targets/${ids.target}.json`));
  });

  test('jobs (J1–J7) answer 501 with the reason: they need the original job runner', async () => {
    const calls: [string, string, object?][] = [
      ['GET', '/jobs.json'],
      ['POST', '/jobs.json', { template_id: '2', override: { environment: [] }, success: false, failure: false, running: false }],
      ['GET', '/jobs/abc.json'],
      ['DELETE', '/jobs/abc.json'],
      ['GET', '/jobs/abc/log.json'],
      ['GET', '/job_templates.json'],
      ['GET', '/job_templates/1.json'],
    ];
    for (const [method, pathname, body] of calls) {
      const res = await ui(method, pathname, { body });
      expect({ call: `${method} ${pathname}`, status: res.status, body: res.body }).toEqual({
        call: `${method} ${pathname}`,
        status: 501,
        body: { code: 501, message: expect.stringContaining('job runner'), fields: '' },
      });
    }
  });

  test('apps are deleted (A5)', async () => {
    for (const id of [ids.app, ids.imageApp, ids.composeApp]) ok(await ui('DELETE', `/apps/${id}.json`));
    expect((await ui('GET', `/apps/${ids.app}.json`)).status).toBe(404);
  });
});
