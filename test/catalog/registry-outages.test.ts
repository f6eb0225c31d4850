import { expect } from '@jest/globals';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer, type Server, type Socket } from 'node:net';
import { once } from 'node:events';
import { OUTAGE_CAP_MS, OUTAGE_FIRST_MS, RegistryOutages } from '../../src/catalog/registry-outages';
import { UnreachableError, UpstreamError, UpstreamTimeoutError } from '../../src/errors';
import { startTestApp, type TestApp } from '../helpers/app';

const SEARCH = 'query($q: String!) { search(q: $q, sources: [REGISTRIES]) { errors { registryName message } } }';

describe('a registry that does not answer a search is left alone for a while', () => {
  let t: TestApp;
  let silent: Server;
  let failing: HttpServer;
  let silentRequests = 0;
  let failingRequests = 0;
  let silentId: number;
  const sockets: Socket[] = [];

  const search = async () => {
    const res = await t.graphql<{ search: { errors: { registryName: string; message: string }[] } }>(SEARCH, { q: 'redis' });
    return res.body.data.search.errors;
  };

  beforeAll(async () => {
    // Reads requests and never answers: the search waits for REGISTRY_TIMEOUT_MS, the case that held every search.
    silent = createServer((socket) => {
      socket.on('data', (chunk) => (silentRequests += String(chunk).match(/ HTTP\/1\.1\r\n/g)?.length ?? 0));
      sockets.push(socket);
    }).listen(0, '127.0.0.1');
    // Answers at once, with an error: a registry that answers is asked every time.
    failing = createHttpServer((_req, res) => {
      failingRequests++;
      res.writeHead(500).end();
    }).listen(0, '127.0.0.1');
    await Promise.all([once(silent, 'listening'), once(failing, 'listening')]);
    t = await startTestApp({ REGISTRY_TIMEOUT_MS: '300', REGISTRY_ALLOW_PRIVATE: 'true' });
    expect((await t.request('PATCH', '/registries/0', { body: { enabled: false } })).status).toBe(204);
    const port = (server: Server | HttpServer) => (server.address() as { port: number }).port;
    const made = await t.request<{ id: number }>('POST', '/registries', {
      body: { name: 'Silent', endpoint_url: `http://127.0.0.1:${port(silent)}` },
    });
    silentId = made.body.id;
    await t.request('POST', '/registries', { body: { name: 'Failing', endpoint_url: `http://127.0.0.1:${port(failing)}` } });
  });

  afterAll(async () => {
    await t?.close();
    for (const socket of sockets) socket.destroy();
    silent?.close();
    failing?.close();
  });

  test('the first search waits for the timeout; the next skips it and says until when, the one that answered is asked again', async () => {
    const first = await search();
    expect(first).toEqual([
      { registryName: 'Silent', message: 'Registry "Silent": no answer within 300 ms' },
      { registryName: 'Failing', message: expect.stringContaining('Registry "Failing"') },
    ]);
    expect(silentRequests).toBe(1);
    const failingAfterFirst = failingRequests;
    expect(failingAfterFirst).toBeGreaterThan(0);

    const second = await search();
    expect(second).toEqual([
      {
        registryName: 'Silent',
        message: expect.stringMatching(/^Registry "Silent": did not answer lately; asked again after \d{4}-\d\d-\d\dT[\d:.]+Z$/),
      },
      first[1],
    ]);
    expect(silentRequests).toBe(1);
    expect(failingRequests).toBe(2 * failingAfterFirst);
  });

  test('editing the registry forgets its outage: the next search asks it again', async () => {
    const before = silentRequests;
    expect((await t.request('PATCH', `/registries/${silentId}`, { body: { name: 'Silent' } })).status).toBe(204);
    expect((await search())[0]).toEqual({ registryName: 'Silent', message: 'Registry "Silent": no answer within 300 ms' });
    expect(silentRequests).toBe(before + 1);
  });
});

describe('RegistryOutages', () => {
  let now = 1_000_000;
  const clock = () => now;
  const unreachable = new UnreachableError('Registry "R": cannot be reached');
  const timeout = new UpstreamTimeoutError('Registry "R": no answer within 5000 ms');

  test('after the pause one search asks again while the others keep skipping; a miss doubles the pause up to the cap', () => {
    const outages = new RegistryOutages(clock);
    expect(outages.admit(7)).toEqual({ ask: true });
    outages.failed(7, timeout);
    expect(outages.admit(7)).toEqual({ ask: false, until: now + OUTAGE_FIRST_MS });
    now += OUTAGE_FIRST_MS;
    expect(outages.admit(7)).toEqual({ ask: true });
    expect(outages.admit(7)).toEqual({ ask: false, until: now });
    outages.failed(7, unreachable);
    expect(outages.admit(7)).toEqual({ ask: false, until: now + 2 * OUTAGE_FIRST_MS });
    for (let i = 0; i < 10; i++) {
      now += OUTAGE_CAP_MS;
      expect(outages.admit(7)).toEqual({ ask: true });
      outages.failed(7, unreachable);
    }
    expect(outages.admit(7)).toEqual({ ask: false, until: now + OUTAGE_CAP_MS });
    expect(outages.admit(8)).toEqual({ ask: true });
  });

  test('an answer, even an error answer, ends the outage', () => {
    const outages = new RegistryOutages(clock);
    outages.failed(1, timeout);
    outages.failed(2, timeout);
    now += OUTAGE_FIRST_MS;
    expect(outages.admit(1)).toEqual({ ask: true });
    outages.forget(1);
    expect(outages.admit(1)).toEqual({ ask: true });
    expect(outages.admit(2)).toEqual({ ask: true });
    outages.failed(2, new UpstreamError('Registry "R": answered 500'));
    expect(outages.admit(2)).toEqual({ ask: true });
  });
});
