import { expect } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';

/**
 * A read token's search made the service request any registry endpoint (metadata and
 * link-local addresses, any loopback or private port), the errors told closed ports, non-HTTP
 * ports and HTTP services apart, and stored credentials went to whatever token realm a registry
 * named. Real HTTP servers on loopback stand for the hosts; the service runs without
 * REGISTRY_ALLOW_PRIVATE (the default), then with it.
 */
describe('the outbound policy for registries', () => {
  let strict: TestApp;
  let relaxed: TestApp;
  let hits = 0;
  let realmAuth: string[] = [];
  let registry: Server;
  let realm: Server;
  let registryUrl: string;

  beforeAll(async () => {
    strict = await startTestApp({ REGISTRY_TIMEOUT_MS: '2000' });
    relaxed = await startTestApp({ REGISTRY_TIMEOUT_MS: '2000', REGISTRY_ALLOW_PRIVATE: 'true' });
    realm = createServer((req, res) => {
      realmAuth.push(String(req.headers.authorization ?? ''));
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify({ token: 't' }));
    });
    await new Promise<void>((resolve) => realm.listen(0, '127.0.0.1', resolve));
    // The realm is another host by name (localhost vs 127.0.0.1) and plain HTTP.
    const realmUrl = `http://localhost:${(realm.address() as AddressInfo).port}/token`;
    registry = createServer((_req, res) => {
      hits++;
      res.writeHead(401, { 'www-authenticate': `Bearer realm="${realmUrl}",service="r"`, 'content-type': 'application/json' }).end('{}');
    });
    await new Promise<void>((resolve) => registry.listen(0, '127.0.0.1', resolve));
    registryUrl = `http://127.0.0.1:${(registry.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await strict.close();
    await relaxed.close();
    registry.close();
    realm.close();
  });

  async function searchErrors(t: TestApp, name: string, endpoint: string, credentials: Record<string, string> = {}) {
    const created = await t.request<Identified>('POST', '/registries', {
      body: { name, endpoint_url: 'https://placeholder.example', ...credentials },
    });
    expect(created.status).toBe(201);
    // Stored as it is, past the check at creation: a name may resolve to such an address later,
    // and rows may predate the check. The check at use must hold on its own.
    await t.app.orm.em.getConnection().execute('update registries set endpoint_url = ? where id = ?', [endpoint, created.body.id]);
    const res = await t.graphql<{ search: { errors: { registryName: string; message: string }[] } }>(
      '{ search(q: "anything") { errors { registryName message } } }',
    );
    await t.request('DELETE', `/registries/${created.body.id}`);
    return res.body.data.search.errors.filter((e) => e.registryName === name);
  }

  test('metadata, link-local and (by default) loopback endpoints are never requested, with one uniform message', async () => {
    const before = hits;
    const unreachable = (name: string) => [{ registryName: name, message: `Registry "${name}": cannot be reached` }];
    expect(await searchErrors(strict, 'metadata', 'http://169.254.169.254/latest')).toEqual(unreachable('metadata'));
    expect(await searchErrors(strict, 'mapped', 'http://[::ffff:169.254.169.254]/')).toEqual(unreachable('mapped'));
    expect(await searchErrors(strict, 'loopback', registryUrl)).toEqual(unreachable('loopback'));
    expect(await searchErrors(strict, 'by-name', registryUrl.replace('127.0.0.1', 'localhost'))).toEqual(unreachable('by-name'));
    expect(hits).toBe(before);
    // A closed port answers exactly like a refused address: nothing maps the network.
    expect(await searchErrors(relaxed, 'closed', 'http://127.0.0.1:9')).toEqual(unreachable('closed'));
    expect(await searchErrors(relaxed, 'metadata', 'http://169.254.169.254/latest')).toEqual(unreachable('metadata'));
  });

  test.each([
    'http://169.254.169.254/latest',
    'http://[::ffff:169.254.169.254]/',
    'http://2852039166/',
    'http://0xa9fea9fe/',
    'http://[fe80::1]/',
    'http://metadata.google.internal/computeMetadata/v1',
    'https://100.100.100.200/',
  ])('a link-local or metadata endpoint (%s) is refused at creation (422 naming endpoint_url) and at update', async (endpoint) => {
    const refused = {
      code: 422,
      message: 'endpoint_url is a link-local or cloud metadata address, which this service never connects to',
      fields: 'endpoint_url',
    };
    const created = await relaxed.request('POST', '/registries', { body: { name: 'meta', endpoint_url: endpoint } });
    expect({ status: created.status, body: created.body }).toEqual({ status: 422, body: refused });
    const fine = await relaxed.request<Identified>('POST', '/registries', { body: { name: 'fine', endpoint_url: 'https://fine.example' } });
    const updated = await relaxed.graphql(
      'mutation($id: Int!, $url: String!) { updateRegistry(input: { id: $id, endpointUrl: $url }) { __typename ... on Error { code message fields } } }',
      { id: fine.body.id, url: endpoint },
    );
    expect(updated.body).toEqual({
      data: {
        updateRegistry: { __typename: 'ValidationError', code: 'VALIDATION_FAILED', message: refused.message, fields: ['endpoint_url'] },
      },
    });
    // Nothing changed.
    expect((await relaxed.request('GET', `/registries/${fine.body.id}`)).body).toMatchObject({ endpoint_url: 'https://fine.example' });
    await relaxed.request('DELETE', `/registries/${fine.body.id}`);
  });

  test('with REGISTRY_ALLOW_PRIVATE a loopback registry is asked, but its credentials do not go to a plain-HTTP realm on another host', async () => {
    const before = hits;
    realmAuth = [];
    const errors = await searchErrors(relaxed, 'private', registryUrl, { username: 'bob', password: 'hunter2-secret' });
    expect(hits).toBeGreaterThan(before);
    expect(realmAuth.filter((header) => header !== '')).toEqual([]);
    expect(errors).toEqual([
      {
        registryName: 'private',
        message: expect.stringContaining("neither https nor the registry's own host; credentials are not sent there"),
      },
    ]);
    expect(JSON.stringify(errors)).not.toContain('hunter2');
  });
});

/**
 * git URLs (template repos, compose build contexts) were outside the address checks: a write
 * token could make the service fetch from a link-local (cloud metadata) address. They now follow
 * the registries' "never" list; private networks stay allowed, as git servers live there.
 */
describe('the outbound policy for git URLs', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ GIT_TIMEOUT_MS: '5000' });
  });
  afterAll(() => t?.close());

  test.each([
    'http://169.254.169.254/latest/repo.git',
    'ssh://git@169.254.169.254/x.git',
    'git@169.254.169.254:owner/repo.git',
    'https://[::ffff:169.254.169.254]/r.git',
    'git://[fe80::1]/r.git',
  ])('a template repo at %s is refused before git runs', async (name) => {
    const res = await t.request<{ code: number; message: string }>('POST', '/template_repos', { body: { name } });
    expect(res.status).toBe(502);
    expect(res.body.message).toContain('an address this service never connects to');
    expect((await t.request<unknown[]>('GET', '/template_repos')).body).toEqual([]);
  });

  test('a compose build context there is refused, and nothing is stored', async () => {
    const compose = 'services:\n  web:\n    build: http://169.254.169.254/app.git\n';
    const res = await t.request<{ code: number; message: string; fields: string }>('POST', '/apps', { body: { compose_yaml: compose } });
    expect(res.status).toBe(422);
    expect(res.body.message).toContain('services.web.build');
    expect(res.body.message).toContain('an address this service never connects to');
    expect((await t.request<unknown[]>('GET', '/apps')).body).toEqual([]);
  });
});
