import { expect } from '@jest/globals';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';
import { describeDocker, TEST_IMAGE, testDockerHost } from '../helpers/docker';

interface Entry {
  message: string;
  cursor: string;
}

const LINES = 50_000;

/**
 * A journal read must not cost the whole log: the engine finds a `since` by reading its log from
 * the start, and used to send every line after it, of which the page keeps 1,000. The service
 * talks to the engine through a proxy here that records each log request and the bytes it sent.
 */
describeDocker('the journal of a long log', () => {
  let t: TestApp;
  let proxy: Server;
  let appId: number;
  const logReads: { query: Record<string, string>; bytes: number }[] = [];

  beforeAll(async () => {
    const engine = new URL(testDockerHost());
    proxy = createServer((req, res) => {
      const upstream = request(
        {
          ...(engine.protocol === 'unix:' ? { socketPath: engine.pathname } : { host: engine.hostname, port: engine.port }),
          method: req.method,
          path: req.url,
          headers: req.headers,
        },
        (answer) => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          const url = new URL(req.url ?? '/', 'http://engine');
          const read = /\/containers\/[^/]+\/logs$/.test(url.pathname) ? { query: Object.fromEntries(url.searchParams), bytes: 0 } : null;
          if (read) logReads.push(read);
          answer.on('data', (chunk: Buffer) => read && (read.bytes += chunk.length));
          answer.pipe(res);
          res.on('close', () => answer.destroy());
        },
      );
      upstream.on('error', () => res.destroy());
      req.pipe(upstream);
    });
    await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
    t = await startTestApp({ DOCKER_HOST: `tcp://127.0.0.1:${(proxy.address() as AddressInfo).port}` });
    const app = await t.request<Identified>('POST', '/apps', {
      body: {
        name: 'long-log',
        compose_yaml: `services:\n  writer:\n    image: ${TEST_IMAGE}\n    command: ["sh", "-c", "seq 1 ${LINES} | sed 's/^/line /'; echo done; exec sleep 3600"]\n`,
      },
    });
    expect(app.status).toBe(200);
    appId = app.body.id;
    // Written to its end: the last line is "done" (no other event says so).
    for (let last: Entry | undefined; last?.message !== 'done';) {
      [last] = (await t.request<Entry[]>('GET', `/apps/${appId}/journal?limit=1`)).body;
      if (last?.message !== 'done') await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }, 120_000);

  afterAll(async () => {
    if (appId) await t.request('DELETE', `/apps/${appId}`);
    await t?.close();
    await new Promise((resolve) => proxy?.close(resolve));
  });

  test('a poll with the last cursor asks the engine for the tail only', async () => {
    const [last] = (await t.request<Entry[]>('GET', `/apps/${appId}/journal?limit=1`)).body;
    logReads.length = 0;
    const poll = await t.request('GET', `/apps/${appId}/journal?cursor=${encodeURIComponent(last.cursor)}`);
    expect(poll.body).toEqual([]);
    expect(logReads.map((r) => [r.query.tail, r.query.since])).toEqual([['1000', undefined]]);
  });

  test('a page from a cursor in the middle is the next 1,000 lines, without the rest of the log', async () => {
    const first = (await t.request<Entry[]>('GET', `/apps/${appId}/journal?since=1970-01-01T00:00:00Z`)).body;
    expect(first.map((e) => e.message)).toEqual(Array.from({ length: 1000 }, (_, i) => `line ${i + 1}`));
    logReads.length = 0;
    const page = await t.request<Entry[]>('GET', `/apps/${appId}/journal?cursor=${encodeURIComponent(first[999].cursor)}`);
    expect(page.body.map((e) => e.message)).toEqual(Array.from({ length: 1000 }, (_, i) => `line ${i + 1001}`));
    // The whole log is over 2 MB (each line framed with its time); what follows the cursor, 49,000 lines of it.
    const sent = logReads.reduce((sum, r) => sum + r.bytes, 0);
    expect(sent).toBeLessThan(1024 * 1024);
  });

  test('a `since` near the end is answered from the tail, from that line on', async () => {
    const tail = (await t.request<Entry[]>('GET', `/apps/${appId}/journal?limit=10`)).body;
    const since = await t.request<Entry[]>('GET', `/apps/${appId}/journal?since=${encodeURIComponent(tail[0].cursor)}`);
    expect(since.body).toEqual(tail);
  });
});
