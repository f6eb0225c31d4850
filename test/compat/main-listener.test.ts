import { expect } from '@jest/globals';
import { rmSync } from 'node:fs';
import { parse } from 'yaml';
import { startTestApp, type TestApp } from '../helpers/app';
import type { ErrorBody, Identified, Named, ServiceBody } from '../helpers/bodies';
import { describeDocker, TEST_IMAGE } from '../helpers/docker';
import { makeGitRepo, pmx } from '../helpers/git';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';
import { cleanupEngine, instanceId, suffix } from '../apps/fixtures';

/**
 * The main listener keeps interface A exact and adds what cannot hurt a spec client: `.json`
 * on every path, `Location` on every create, and the original API's extra calls. Real
 * PostgreSQL, Docker engine, git and docker-registry.
 */
describeDocker('the main listener: .json paths, Location headers, extra routes', () => {
  let t: TestApp;
  let instance: string;
  let repoDir: string;
  let registry: TestRegistry | undefined;
  const sfx = suffix();

  beforeAll(async () => {
    // The test registry listens on loopback: the operator's opt-in of the outbound policy.
    t = await startTestApp({ GITHUB_TOKEN: 'ghp_test', REGISTRY_ALLOW_PRIVATE: 'true' });
    instance = await instanceId(t);
    repoDir = makeGitRepo({ 'wp.pmx': pmx(`WordPress ${sfx}`, { keywords: 'blog' }) });
  });

  afterAll(async () => {
    await t?.close();
    await cleanupEngine(instance);
    await registry?.stop();
    rmSync(repoDir, { recursive: true, force: true });
  });

  /** A create answers its record and `Location: <path of it>`, and that path serves the same record. */
  async function created<T extends Identified = Identified>(path: string, body: unknown, expectedStatus: number): Promise<T> {
    const res = await t.request<T>('POST', path, { body });
    expect(res.status).toBe(expectedStatus);
    expect(res.body.id).toEqual(expect.any(Number));
    const location = res.headers.location as string;
    expect(location).toBe(`${path.replace(/\.json$/, '')}/${res.body.id}`);
    const read = await t.request<T>('GET', `${location}.json`);
    expect(read.status).toBe(200);
    expect(read.body.id).toBe(res.body.id);
    return res.body;
  }

  let appId: number;
  let serviceId: number;

  test('every create answers Location (template repo, registry, app, service, template, category)', async () => {
    const repo = await created('/template_repos.json', { name: repoDir }, 200);
    expect(repo).toEqual({ id: expect.any(Number), name: repoDir, template_count: 1, updated_at: expect.any(String), load_errors: [] });
    await created('/registries', { name: `Team ${sfx}`, endpoint_url: 'http://127.0.0.1:9' }, 201);
    const app = await created('/apps.json', { image: TEST_IMAGE }, 200);
    appId = app.id;
    const service = await created(`/apps/${appId}/services.json`, { name: `extra-${sfx}`, from: TEST_IMAGE }, 200);
    serviceId = service.id;
    const template = await created<Named>('/templates.json', { app_id: appId, name: `From app ${sfx}` }, 201);
    expect(template.name).toBe(`From app ${sfx}`);
    const category = await created<Named>(`/apps/${appId}/categories.json`, { name: 'Web Tier' }, 201);
    expect(category).toEqual({ id: expect.any(Number), name: 'Web Tier', position: expect.any(Number) });
  });

  test('every spec GET answers the same with .json as without', async () => {
    const templateId = (await t.request<Identified[]>('GET', '/templates')).body[0].id;
    const paths = [
      '/templates',
      `/templates/${templateId}`,
      '/template_repos',
      '/registries',
      '/registries/0',
      '/keywords',
      '/types',
      '/user',
      '/search?q=wordpress',
      '/apps',
      `/apps/${appId}`,
      `/apps/${appId}/services`,
      `/apps/${appId}/services/${serviceId}`,
      '/deployment_targets',
      '/platform',
    ];
    for (const path of paths) {
      const [bare, json] = [path, path.replace(/(\?|$)/, '.json$1')];
      const [a, b] = await Promise.all([t.request('GET', bare), t.request('GET', json)]);
      expect({ path: json, status: b.status }).toEqual({ path: json, status: 200 });
      // Live container states may move between the two reads: compare everything else.
      const stable = (body: unknown): unknown =>
        JSON.parse(JSON.stringify(body, (key, value: unknown) => (/_state$|^container_status$/.test(key) ? undefined : value)));
      expect(stable(b.body)).toEqual(stable(a.body));
    }
    // The spec's semantics stay: PUT /apps/{id} rebuilds (204), with or without .json.
    expect((await t.request('PUT', `/apps/${appId}.json`)).status).toBe(204);
    // An unknown path is still 404, a known one with another method 405.
    expect((await t.request('GET', '/nothing.json')).status).toBe(404);
    expect((await t.request('PATCH', '/apps.json')).status).toBe(405);
    // Still a token: the main listener never serves without one.
    expect((await t.request('GET', '/apps.json', { token: null })).status).toBe(401);
  });

  test('categories: list, read, rename and move, delete (the services stay, outside it)', async () => {
    const db = await t.request<Identified>('POST', `/apps/${appId}/categories`, { body: { name: 'DB Tier', position: 5 } });
    expect(db.status).toBe(201);
    // Put the service in it, then take the category away.
    expect(
      (await t.request('PUT', `/apps/${appId}/services/${serviceId}`, { body: { categories: [{ id: db.body.id, position: 1 }] } })).status,
    ).toBe(204);
    expect((await t.request('PUT', `/apps/${appId}/categories/${db.body.id}.json`, { body: { name: 'Data', position: 2 } })).status).toBe(
      204,
    );
    expect((await t.request('GET', `/apps/${appId}/categories/${db.body.id}`)).body).toEqual({ id: db.body.id, name: 'Data', position: 2 });
    const list = await t.request('GET', `/apps/${appId}/categories.json`);
    expect(list.body).toEqual(expect.arrayContaining([{ id: db.body.id, name: 'Data', position: 2 }]));
    expect((await t.request<ServiceBody>('GET', `/apps/${appId}/services/${serviceId}`)).body.categories).toEqual([
      { id: db.body.id, name: 'Data', position: 1 },
    ]);
    expect((await t.request('DELETE', `/apps/${appId}/categories/${db.body.id}.json`)).status).toBe(204);
    expect((await t.request('GET', `/apps/${appId}/categories/${db.body.id}`)).status).toBe(404);
    expect((await t.request<ServiceBody>('GET', `/apps/${appId}/services/${serviceId}`)).body.categories).toEqual([]);
    // Bad input: 422 naming the field; an unknown app 404.
    expect((await t.request('POST', `/apps/${appId}/categories`, { body: { name: ' ' } })).body).toEqual({
      code: 422,
      message: "name can't be blank",
      fields: 'name',
    });
    expect((await t.request('POST', '/apps/999999/categories', { body: { name: 'x' } })).status).toBe(404);
  });

  test('GET /apps/{id}/compose_yml: the app as a Compose file that POST /apps reads back', async () => {
    const res = await t.request<{ compose_yaml: string }>('GET', `/apps/${appId}/compose_yml.json`);
    expect(res.status).toBe(200);
    expect(Object.keys(res.body)).toEqual(['compose_yaml']);
    const file = parse(res.body.compose_yaml) as { services: Record<string, unknown> };
    expect(file.services[`extra-${sfx}`]).toEqual({ image: TEST_IMAGE });
    const services = (await t.request<ServiceBody[]>('GET', `/apps/${appId}/services`)).body;
    expect(Object.keys(file.services).sort()).toEqual(services.map((s) => s.name).sort());
    // Read back: a new app with the same images (names made unique by the service).
    const again = await t.request<Identified>('POST', '/apps', { body: { compose_yaml: res.body.compose_yaml } });
    expect(again.status).toBe(200);
    const copies = (await t.request<ServiceBody[]>('GET', `/apps/${again.body.id}/services`)).body;
    expect(copies.map((s) => s.from).sort()).toEqual(services.map((s) => s.from).sort());
    expect((await t.request('DELETE', `/apps/${again.body.id}`)).status).toBe(204);
  });

  test('DELETE /apps/{app_id}/services/{id} removes the service and its container', async () => {
    expect((await t.request('DELETE', `/apps/${appId}/services/${serviceId}.json`)).status).toBe(204);
    expect((await t.request('GET', `/apps/${appId}/services/${serviceId}`)).status).toBe(404);
    expect((await t.request('DELETE', `/apps/${appId}/services/${serviceId}`)).status).toBe(404);
  });

  test("GET /repositories/{name}: the local engine's tags of an image, by a name with slashes", async () => {
    const [repository, tag] = TEST_IMAGE.split(':');
    const res = await t.request('GET', `/repositories/${repository}.json?local=true&registry_id=0`);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ id: repository, tags: expect.arrayContaining([tag]) });
    expect((await t.request('GET', `/repositories/nobody/nothing-${sfx}.json?local=true`)).status).toBe(404);
    expect((await t.request('GET', `/repositories/${repository}?local=maybe`)).body).toEqual({
      code: 400,
      message: 'local must be true or false',
      fields: 'local',
    });
    expect((await t.request('GET', `/repositories/${repository}`)).body).toEqual({
      code: 422,
      message: 'registry_id is required unless local is true',
      fields: 'registry_id',
    });
  });

  (registryAvailable() ? test : test.skip)("GET /repositories/{name}?registry_id=: a registry's tags (real docker-registry)", async () => {
    registry = await startRegistry({ auth: 'basic' });
    await registry.push('team/web', 'v1');
    await registry.push('team/web', 'v2');
    const reg = await t.request<Identified>('POST', '/registries', {
      body: {
        name: `Private ${sfx}`,
        endpoint_url: registry.url,
        username: registry.credentials!.username,
        password: registry.credentials!.password,
      },
    });
    const res = await t.request('GET', `/repositories/team/web.json?local=false&registry_id=${reg.body.id}`);
    expect(res.body).toEqual({ id: 'team/web', tags: ['v1', 'v2'] });
    expect((await t.request('GET', `/repositories/team/none.json?registry_id=${reg.body.id}`)).status).toBe(404);
  });

  test("PUT /user sets the caller's e-mail; a per-user GitHub token is refused, naming it", async () => {
    const res = await t.request('PUT', '/user.json', { body: { email: 'me@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ username: 'admin', email: 'me@example.com', repos: [repoDir], template_repo_providers: expect.any(Array) });
    expect((await t.request<{ email: string }>('GET', '/user')).body.email).toBe('me@example.com');
    const refused = await t.request<ErrorBody>('PUT', '/user', { body: { github_access_token: 'ghp_x' } });
    expect(refused.status).toBe(422);
    expect(refused.body.fields).toBe('github_access_token');
    expect((await t.request('PUT', '/user', { body: { email: 'not an address' } })).body).toEqual({
      code: 422,
      message: 'email is not an e-mail address',
      fields: 'email',
    });
    expect((await t.request<{ email: string }>('GET', '/user')).body.email).toBe('me@example.com');
  });
});
