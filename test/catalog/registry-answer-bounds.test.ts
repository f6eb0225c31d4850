import { expect } from '@jest/globals';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';

const MAX = 8 * 1024 * 1024;
// Long enough for the 9 MiB answer on a loaded machine (at 500 ms it lost that race under the
// whole suite), short enough that the answer that never ends is not waited for long.
const TIMEOUT_MS = 5000;

/** Streams `bytes` of a JSON string without a content-length, in 64 KiB writes. */
function streamHuge(res: ServerResponse, bytes: number): void {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 'a');
  let sent = 0;
  res.write('"');
  const pump = () => {
    while (sent < bytes) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end('"');
  };
  pump();
}

/**
 * README "Limits": a registry's answer is read up to 8 MiB, and the whole search of one registry
 * ends at REGISTRY_TIMEOUT_MS; either is reported in the search's errors, and the rest of the
 * search still answers. A registry that misbehaves so cannot be made of the real docker-registry:
 * these are plain HTTP servers standing in for broken registries.
 */
describe("a registry's answers are bounded in size and in time", () => {
  let t: TestApp;
  let huge: Server;
  let drip: Server;

  const listen = async (server: Server) => {
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  };

  beforeAll(async () => {
    huge = createServer((req, res) => {
      if (req.url === '/v2/') return void res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
      streamHuge(res, MAX + 1024 * 1024);
    });
    // One byte at a time, each well inside any gap a per-read timeout allows, forever.
    drip = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(timer));
    });
    const [hugeUrl, dripUrl] = await Promise.all([listen(huge), listen(drip)]);
    t = await startTestApp({ REGISTRY_ALLOW_PRIVATE: 'true', REGISTRY_TIMEOUT_MS: String(TIMEOUT_MS) });
    // Only these two are searched: the default Docker Hub entry is turned off.
    for (const registry of (await t.request<Identified[]>('GET', '/registries')).body)
      await t.request('PATCH', `/registries/${registry.id}`, { body: { enabled: false } });
    for (const [name, endpoint_url] of [
      ['huge', hugeUrl],
      ['drip', dripUrl],
    ])
      expect((await t.request('POST', '/registries', { body: { name, endpoint_url } })).status).toBe(201);
  });

  afterAll(async () => {
    for (const server of [huge, drip]) {
      server?.closeAllConnections();
      await new Promise((resolve) => server?.close(resolve));
    }
    await t?.close();
  });

  test('an answer over 8 MiB and one that never ends are each the search error of their registry; the search answers', async () => {
    type Search = { search: { items: unknown[]; errors: { registryName: string; message: string }[] } };
    // A safety net far past the deadline under test, so that a search that never ends fails here.
    const res = await Promise.race([
      t.graphql<Search>('{ search(q: "anything") { items { name } errors { registryName message } } }'),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 20 s')), 20_000).unref()),
    ]);
    const { items, errors } = res.body.data.search;
    expect({ items, errors: [...errors].sort((a, b) => a.registryName.localeCompare(b.registryName)) }).toEqual({
      items: [],
      errors: [
        { registryName: 'drip', message: `Registry "drip": no answer within ${TIMEOUT_MS} ms` },
        { registryName: 'huge', message: `Registry "huge": answer to GET /v2/_catalog is larger than ${MAX} bytes` },
      ],
    });
  }, 30_000);
});
