import { expect } from '@jest/globals';
import { rmSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { request } from 'undici';
import { startTestApp, type TestApp } from '../helpers/app';
import type { ErrorBody, Identified, Named } from '../helpers/bodies';
import { makeGitRepo, pmx } from '../helpers/git';
import { registryAvailable, startRegistry, type TestRegistry } from '../helpers/registry';
import { suffix } from '../apps/fixtures';

/** Stands between the service and the registry, counting the requests that reach the registry. */
async function startCountingProxy(target: string): Promise<{ url: string; requests: string[]; close(): Promise<void> }> {
  const requests: string[] = [];
  const upstream = new URL(target);
  const server: Server = createServer((req, res) => {
    requests.push(`${req.method} ${req.url}`);
    const forwarded = httpRequest(
      { host: upstream.hostname, port: upstream.port, method: req.method, path: req.url, headers: { ...req.headers, host: upstream.host } },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        answer.pipe(res);
      },
    );
    forwarded.on('error', () => res.writeHead(502).end());
    req.pipe(forwarded);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/**
 * The legacy listener while the Docker engine cannot be reached (DOCKER_HOST names a socket where
 * nothing listens): what needs no engine still answers. Real PostgreSQL, git and docker-registry
 * (behind a proxy that counts what reaches it).
 */
describe('the legacy listener with the engine unreachable', () => {
  let t: TestApp;
  let repoDir: string;
  let registry: TestRegistry | undefined;
  let proxy: Awaited<ReturnType<typeof startCountingProxy>> | undefined;
  let registryId: number;
  let templateId: number;
  const sfx = suffix();

  async function ui<T = unknown>(method: string, pathname: string, body?: unknown) {
    const res = await request(`${t.legacyUrl}${pathname}`, {
      method: method as never,
      headers: body === undefined ? { accept: 'application/json' } : { 'content-type': 'application/json' },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
  }

  beforeAll(async () => {
    t = await startTestApp({
      DOCKER_HOST: `unix:///tmp/platform-no-engine-${sfx}.sock`,
      LEGACY_UI_PORT: '0',
      LEGACY_UI_SCOPE: 'write',
      REGISTRY_ALLOW_PRIVATE: 'true',
    });
    repoDir = makeGitRepo({ 'wp.pmx': pmx(`WordPress ${sfx}`, { keywords: 'wordpress, blog' }) });
    expect((await ui('POST', '/template_repos.json', { name: repoDir })).status).toBe(201);
    templateId = (await t.request<Named[]>('GET', '/templates')).body.find((tpl) => tpl.name === `WordPress ${sfx}`)!.id;
    // Docker Hub cannot be reached from here.
    expect((await ui('PUT', '/registries/0.json', { id: '0', name: 'Docker Hub', enabled: '0' })).status).toBe(204);
    if (registryAvailable()) {
      registry = await startRegistry({ auth: 'none' });
      await registry.push('team/wordpress', 'latest');
      proxy = await startCountingProxy(registry.url);
      const created = await ui<Identified>('POST', '/registries.json', { name: `Team ${sfx}`, endpoint_url: proxy.url });
      expect(created.status).toBe(201);
      registryId = created.body.id;
    }
  });

  afterAll(async () => {
    await t?.close();
    await proxy?.close();
    await registry?.stop();
    rmSync(repoDir, { recursive: true, force: true });
  });

  const template = async () => (await ui('GET', `/templates/${templateId}.json`)).body;

  describe('search (S1) needs the engine only for local images', () => {
    test('type=template answers the templates and asks no registry', async () => {
      const before = proxy?.requests.length ?? 0;
      const res = await ui('GET', '/search.json?limit=40&q=wordpress&type=template');
      expect(res).toEqual({ status: 200, body: { q: 'wordpress', templates: [await template()] } });
      expect(proxy?.requests.length ?? 0).toBe(before);
    });

    test('type=remote_image answers the registry images', async () => {
      if (!registry || !proxy) return;
      const before = proxy.requests.length;
      const res = await ui('GET', '/search.json?limit=40&q=wordpress&type=remote_image');
      expect(res).toEqual({
        status: 200,
        body: {
          q: 'wordpress',
          remote_images: [
            {
              source: `${new URL(proxy.url).host}/team/wordpress`,
              description: '',
              is_official: false,
              is_trusted: false,
              star_count: 0,
              registry_id: registryId,
              registry_name: `Team ${sfx}`,
            },
          ],
          errors: [],
        },
      });
      // The counter sees the registry's requests: the template search's zero above is not a blind spot.
      expect(proxy.requests.length).toBeGreaterThan(before);
    });

    test("the no-JS form (only q) answers everything else, with local_images [] and the engine's failure in errors", async () => {
      const res = await ui<{ remote_images: unknown[] }>('GET', '/search.json?q=wordpress');
      expect(res).toEqual({
        status: 200,
        body: {
          q: 'wordpress',
          templates: [await template()],
          local_images: [],
          remote_images: registry ? [expect.objectContaining({ registry_id: registryId })] : [],
          errors: [
            {
              registry_id: null,
              registry_name: 'Docker engine',
              summary: expect.stringMatching(/^The local images could not be searched: container engine at .* is unreachable/),
            },
          ],
        },
      });
    });

    test('type=local_image asks only the engine: its failure is the answer', async () => {
      const res = await ui<ErrorBody>('GET', '/search.json?limit=40&q=wordpress&type=local_image');
      expect(res).toEqual({ status: 502, body: { code: 502, message: expect.stringMatching(/is unreachable/), fields: '' } });
    });
  });

  describe('journals (A8, A17), polled every second, are empty while the engine is down', () => {
    let appId: number;
    let serviceId: number;

    beforeAll(async () => {
      const app = await ui<Identified>('POST', '/apps.json', { template_id: String(templateId) });
      expect(app.status).toBe(201);
      appId = app.body.id;
      serviceId = (await ui<Named[]>('GET', `/apps/${appId}/services.json`)).body[0].id;
    });

    test('the legacy listener answers [] for the app and the service', async () => {
      expect(await ui('GET', `/apps/${appId}/journal.json?cursor=`)).toEqual({ status: 200, body: [] });
      expect(await ui('GET', `/apps/${appId}/services/${serviceId}/journal.json?cursor=`)).toEqual({ status: 200, body: [] });
    });

    test('an unknown app is still a 404 there, and the main listener still answers 502', async () => {
      expect((await ui('GET', '/apps/999999/journal.json?cursor=')).status).toBe(404);
      const main = await t.request<ErrorBody>('GET', `/apps/${appId}/journal`);
      expect(main.status).toBe(502);
      const service = await t.request<ErrorBody>('GET', `/apps/${appId}/services/${serviceId}/journal`);
      expect(service.status).toBe(502);
    });
  });
});
