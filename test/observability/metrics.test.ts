import { expect } from '@jest/globals';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { Pool } from 'undici';
import { isPrivateAddress } from '../../src/net/private-address';
import { sseSubscribe, until } from '../events/clients';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';

/** A scrape as `series → value` (`name{labels}`), comments left out. */
function parse(text: string): Map<string, number> {
  const series = new Map<string, number>();
  for (const line of text.split('\n')) {
    if (!line || line.startsWith('#')) continue;
    const at = line.lastIndexOf(' ');
    series.set(line.slice(0, at), Number(line.slice(at + 1)));
  }
  return series;
}

async function scrape(t: TestApp, token: string | null = null): Promise<Map<string, number>> {
  const res = await t.request('GET', '/metrics', { token });
  expect(res.status).toBe(200);
  return parse(res.text);
}

async function readToken(t: TestApp): Promise<string> {
  const issued = await t.graphql<{ createApiToken: { token: string } }>(
    'mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { ... on IssuedApiToken { token } } }',
    { input: { name: 'reader', scopes: ['read'] } },
  );
  return issued.body.data.createApiToken.token;
}

describe('/metrics', () => {
  let t: TestApp;
  beforeAll(async () => {
    t = await startTestApp({ METRICS_ON_MAIN_PORT: 'true' });
  });
  afterAll(() => t?.close());

  test('requests by route template and status, GraphQL operations, SQL, the pool and the process', async () => {
    const before = await scrape(t);
    await t.request('GET', '/templates');
    await t.request('GET', '/templates/424242');
    await t.request('GET', '/apps/31337.json');
    await t.request('GET', '/nothing/here/99');
    await t.graphql('query Whoami { me { username } }');
    await t.graphql('{ me { username } }');
    await t.graphql('query Broken { app(id: 999999) { name } }');
    const after = await scrape(t);
    const delta = (series: string) => (after.get(series) ?? 0) - (before.get(series) ?? 0);
    expect({
      templates: delta('http_server_request_duration_seconds_count{method="GET",route="/templates",status="200"}'),
      template404: delta('http_server_request_duration_seconds_count{method="GET",route="/templates/:id",status="404"}'),
      app404: delta('http_server_request_duration_seconds_count{method="GET",route="/apps/:id",status="404"}'),
      unmatched: delta('http_server_request_duration_seconds_count{method="GET",route="unmatched",status="404"}'),
      graphql: delta('http_server_request_duration_seconds_count{method="POST",route="/graphql",status="200"}'),
      restOperation: delta(
        'graphql_operation_duration_seconds_count{operation="ListTemplates",type="query",door="rest",outcome="success"}',
      ),
      restFailed: delta('graphql_operation_duration_seconds_count{operation="GetTemplate",type="query",door="rest",outcome="error"}'),
      named: delta('graphql_operation_duration_seconds_count{operation="Whoami",type="query",door="graphql",outcome="success"}'),
      anonymous: delta('graphql_operation_duration_seconds_count{operation="anonymous",type="query",door="graphql",outcome="success"}'),
      partial: delta('graphql_operation_duration_seconds_count{operation="Broken",type="query",door="graphql",outcome="partial"}'),
    }).toEqual({
      templates: 1,
      template404: 1,
      app404: 1,
      unmatched: 1,
      graphql: 3,
      restOperation: 1,
      restFailed: 1,
      named: 1,
      anonymous: 1,
      partial: 1,
    });
    expect(delta('db_client_operation_duration_seconds_count{operation="select",outcome="ok"}')).toBeGreaterThan(0);
    expect(after.get('db_client_connections_max')).toBe(10);
    expect(after.has('db_client_connections{state="used"}')).toBe(true);
    expect(after.has('db_client_connections_pending_requests')).toBe(true);
    expect(after.has('graphql_subscriptions_open')).toBe(true);
    for (const name of ['nodejs_eventloop_lag_p99_seconds', 'nodejs_heap_size_used_bytes', 'process_resident_memory_bytes']) {
      expect([name, after.has(name)]).toEqual([name, true]);
    }
  });

  test('subscriptions open are counted while they run', async () => {
    const gauge = async () => (await scrape(t)).get('graphql_subscriptions_open');
    expect(await gauge()).toBe(0);
    const stream = await sseSubscribe(t.url, 'subscription { serviceStateChanged { appId } }');
    expect(stream.status).toBe(200);
    expect(await gauge()).toBe(1);
    await stream.close();
    await until(async () => (await gauge()) === 0, 'the subscription to end');
  });

  test('10,000 distinct paths, ids and operation names leave the number of series as it was', async () => {
    const pool = new Pool(t.url, { connections: 16 });
    const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };
    const kinds: ((i: number) => { method: string; path: string; body?: string })[] = [
      (i: number) => ({ method: 'GET', path: `/no/such/path/${i}` }),
      (i: number) => ({ method: 'GET', path: `/apps/${i}` }),
      (i: number) => ({ method: 'GET', path: `/apps/${i}/services/${i + 1}` }),
      (i: number) => ({ method: 'DELETE', path: `/deployment_targets/${i}` }),
      (i: number) => ({ method: 'GET', path: `/assets/chunk-${i}.js` }),
      (i: number) => ({ method: 'GET', path: `/templates/${i}?q=${i}` }),
      (i: number) => ({ method: 'PROPFIND', path: `/x${i}` }),
      (i: number) => ({ method: 'POST', path: '/graphql', body: JSON.stringify({ query: `query Probe${i} { me { username } }` }) }),
    ];
    const fire = async (from: number, count: number) => {
      let next = from;
      const worker = async () => {
        while (next < from + count) {
          const i = next++;
          const { method, path, body } = kinds[i % kinds.length](i);
          const res = await pool.request({ method, path, headers, body });
          await res.body.dump();
        }
      };
      await Promise.all(Array.from({ length: 16 }, worker));
    };
    // The bounded labels fill first (GraphQL keeps 200 operation names, then counts `other`).
    await fire(0, 4000);
    const families = (text: string) => [...parse(text).keys()].filter((s) => !/^(nodejs|process)_/.test(s));
    const first = await t.request('GET', '/metrics', { token: null });
    await fire(1_000_000, 10_000);
    const second = await t.request('GET', '/metrics', { token: null });
    await pool.close();
    // The runtime's own families (GC kinds, handle types) come and go with the process, not traffic.
    expect(families(second.text).length).toBe(families(first.text).length);
    expect(families(second.text)).toEqual(families(first.text));
    expect(second.text).not.toMatch(/route="\/(no\/|apps\/\d|assets\/chunk|x\d)/);
    expect(second.text).not.toMatch(/operation="Probe1\d{6}"/);
    expect(second.text).toMatch(/metrics_label_values_dropped_total\{label="operation"\} \d+/);
    expect(second.text).toMatch(/http_server_request_duration_seconds_count\{method="other",route="unmatched",status="404"\} \d+/);
  }, 300_000);

  test('a listener bound to a public address asks for an admin token', async () => {
    const open = await startTestApp({ METRICS_ON_MAIN_PORT: 'true', HOST: '0.0.0.0' });
    try {
      const none = await open.request('GET', '/metrics', { token: null });
      expect({ status: none.status, body: none.body }).toEqual({
        status: 401,
        body: { code: 401, message: 'a bearer token is required (Authorization: Bearer <token>)', fields: '' },
      });
      const reader = await open.request('GET', '/metrics', { token: await readToken(open) });
      expect({ status: reader.status, body: reader.body }).toEqual({
        status: 403,
        body: { code: 403, message: '/metrics needs a token with the admin scope', fields: '' },
      });
      expect((await open.request('GET', '/metrics')).status).toBe(200);
    } finally {
      await open.close();
    }
  });

  test('off by default: /metrics is no path of the main listener', async () => {
    const plain = await startTestApp();
    try {
      expect((await plain.request('GET', '/metrics', { token: null })).body).toEqual({
        code: 404,
        message: 'no such path: /metrics',
        fields: '',
      });
      expect(plain.app.metricsHandler).toBeUndefined();
    } finally {
      await plain.close();
    }
  });

  test('METRICS_PORT: a listener of its own that serves /metrics and nothing else', async () => {
    const separate = await startTestApp({ METRICS_PORT: '0' });
    const server: Server = createServer(separate.app.metricsHandler);
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    try {
      const metrics = await fetch(`${url}/metrics`);
      expect({ status: metrics.status, type: metrics.headers.get('content-type') }).toEqual({
        status: 200,
        type: 'text/plain; version=0.0.4; charset=utf-8',
      });
      expect(await metrics.text()).toContain('# TYPE http_server_request_duration_seconds histogram');
      const other = await fetch(`${url}/templates`);
      expect({ status: other.status, body: (await other.json()) as unknown }).toEqual({
        status: 404,
        body: { code: 404, message: 'no such path: /templates (this listener serves /metrics)', fields: '' },
      });
      // The main listener does not serve it.
      expect((await separate.request('GET', '/metrics')).status).toBe(404);
    } finally {
      await new Promise<void>((resolve) => server.close(() => resolve()));
      await separate.close();
    }
  });

  test.each([
    ['127.0.0.1', true],
    ['localhost', true],
    ['10.1.2.3', true],
    ['172.20.0.5', true],
    ['172.32.0.5', false],
    ['192.168.1.10', true],
    ['::1', true],
    ['[fd12:3456::1]', true],
    ['::ffff:10.0.0.1', true],
    ['0.0.0.0', false],
    ['::', false],
    ['8.8.8.8', false],
    ['2001:db8::1', false],
    ['metrics.example.com', false],
  ])('%s is private: %s', (host, expected) => {
    expect(isPrivateAddress(host)).toBe(expected);
  });
});
