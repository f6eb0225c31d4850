import { expect } from '@jest/globals';
import pino from 'pino';
import { request } from 'undici';
import { regularMediaType } from '../../src/http/graphql-direct';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';

/**
 * POST /graphql's direct path (src/http/graphql-direct.ts) runs one JSON operation through
 * yoga's envelop without yoga's fetch layer. It must answer exactly as yoga does: the same
 * requests go to a service with it (GRAPHQL_DIRECT=true) and one without it, on one database,
 * and status, headers and body must be equal; the request log says which requests it served.
 */
describe('GraphQL direct path: the same answers as yoga', () => {
  let direct: TestApp;
  let yoga: TestApp;
  /** The direct service's log, line by line; `waiters` are told of each line as it comes. */
  const logged: LogLine[] = [];
  const waiters = new Set<() => void>();

  beforeAll(async () => {
    const log = pino(
      { level: 'info' },
      {
        write: (line: string) => {
          logged.push(JSON.parse(line) as LogLine);
          for (const wake of waiters) wake();
        },
      },
    );
    // Two instances on one database, so they share SECRET_KEY as replicas must.
    const env = { GRAPHQL_MAX_COST: '2000', SECRET_KEY: 'direct-path-test-secret-key-0123456789abcdef' };
    direct = await startTestApp({ ...env, GRAPHQL_DIRECT: 'true' }, { log });
    yoga = await startTestApp({ ...env, GRAPHQL_DIRECT: 'false', DATABASE_URL: direct.config.databaseUrl! });
    // Something to read: a registry (admin token) in the shared database.
    const line = requestLine(logged.length);
    const made = await direct.request('POST', '/registries', { body: { name: 'hub', endpoint_url: 'https://registry.example' } });
    expect(made.status).toBe(201);
    // Its request line is in before any test looks for its own.
    expect(await line).toMatchObject({ method: 'POST', path: '/registries', status: 201 });
  });

  afterAll(async () => {
    await yoga?.close();
    await direct?.close();
  });

  interface LogLine {
    msg?: string;
    method?: string;
    path?: string;
    status?: number;
    graphql?: string;
  }

  /**
   * The first request line logged at or after index `from`. The server writes it on the
   * response's 'close', just after the answer, so it is waited for (10 s is only a safety net).
   */
  function requestLine(from: number): Promise<LogLine> {
    const found = () => logged.slice(from).find((line) => line.msg === 'request');
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        waiters.delete(wake);
        reject(new Error('no request line was logged within 10 s'));
      }, 10_000);
      const wake = () => {
        const line = found();
        if (!line) return;
        clearTimeout(timer);
        waiters.delete(wake);
        resolve(line);
      };
      waiters.add(wake);
      wake();
    });
  }

  interface Sent {
    body?: string;
    headers?: Record<string, string>;
    method?: 'GET' | 'POST';
    path?: string;
  }

  const send = async (app: TestApp, sent: Sent) => {
    const res = await request(`${app.url}${sent.path ?? '/graphql'}`, {
      method: sent.method ?? 'POST',
      headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json', ...sent.headers },
      body: sent.body,
    });
    const text = await res.body.text();
    // Each answer's own x-request-id differs by design; every other header must be the same.
    const { date: _date, connection: _connection, 'keep-alive': _keepAlive, 'x-request-id': _requestId, ...headers } = res.headers;
    return { status: res.statusCode, headers, text };
  };

  let last: Awaited<ReturnType<typeof send>> | undefined;

  /** Sends to both; returns whether the direct path served it (the answer is in `last`). */
  const same = async (sent: Sent): Promise<boolean> => {
    const line = requestLine(logged.length);
    const viaDirect = await send(direct, sent);
    // This request's own line (the one request the direct service got since), read before any
    // assertion so that a failing test leaves no line behind for the next one.
    const served = await line;
    const viaYoga = await send(yoga, sent);
    expect(viaDirect).toEqual(viaYoga);
    last = viaDirect;
    expect(served).toEqual({
      ...served,
      method: sent.method ?? 'POST',
      path: (sent.path ?? '/graphql').split('?')[0],
      status: viaDirect.status,
    });
    expect([undefined, 'direct']).toContain(served.graphql);
    return served.graphql === 'direct';
  };

  const op = (query: string, more: Record<string, unknown> = {}) => JSON.stringify({ query, ...more });
  const ME = '{ me { username email } registries { name endpointUrl } }';

  test.each([
    ['no Accept', undefined],
    ['*/*', '*/*'],
    ['application/json', 'application/json'],
    ['graphql-response+json', 'application/graphql-response+json'],
    ["Apollo Client's", 'application/graphql-response+json,application/json;q=0.9'],
    ['json with charset', 'application/json; charset=utf-8'],
    ['a browser', 'text/html,application/xhtml+xml,application/xml;q=0.9,*/*;q=0.8'],
    ['SSE listed first', 'text/event-stream, application/json'],
  ])('a query, Accept %s: served directly, same answer', async (_label, accept) => {
    expect(await same({ body: op(ME), headers: accept ? { accept } : {} })).toBe(true);
  });

  test.each([
    ['SSE only', 'text/event-stream'],
    ['multipart only', 'multipart/mixed'],
    ['another charset', 'application/json; charset=iso-8859-1'],
    ['nothing acceptable', 'text/html'],
  ])('a query, Accept %s: left to yoga', async (_label, accept) => {
    expect(await same({ body: op(ME), headers: { accept } })).toBe(false);
  });

  test.each([
    ['a syntax error', '{ me {'],
    ['a validation error', '{ nope }'],
    ['a subscription', 'subscription { platformEvents { kind } }'],
  ])('%s goes to yoga, twice (its caches keep the same verdict), for both media types', async (_label, query) => {
    for (const accept of [
      'application/json',
      'application/graphql-response+json',
      'application/json',
      'application/graphql-response+json',
    ]) {
      expect(await same({ body: op(query), headers: { accept } })).toBe(false);
    }
  });

  test.each([
    ['a lookup that finds nothing beside data (partial: 200)', '{ me { username } a: registry(id: 999) { name } }', {}, 200],
    ['a non-null root that fails (no data: its status)', '{ category(appId: 999, id: 1) { name } }', {}, 404],
    ['a missing variable', 'query Q($id: Int!) { registry(id: $id) { name } }', {}, 400],
    ['a variable of the wrong type', 'query Q($id: Int!) { registry(id: $id) { name } }', { variables: { id: 'x' } }, 400],
    ['two operations, one named', 'query A { me { username } } query B { registries { name } }', { operationName: 'B' }, 200],
    ['null operationName and variables', ME, { operationName: null, variables: null }, 200],
    [
      'a typed error from a mutation',
      'mutation { createRegistry(input: {name: "", endpointUrl: "nope"}) { __typename ... on Error { code message fields } } }',
      {},
      200,
    ],
  ])('%s: same answer', async (_label, query, more, status) => {
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      expect(await same({ body: op(query, more), headers: { accept } })).toBe(true);
    }
    // As a graphql-response+json client sees it.
    expect(last?.status).toBe(status);
  });

  test('over the cost limit: refused the same way', async () => {
    // Lists of unknown size are costed at 10 items: 12,223 (test/graphql/limits.test.ts), and nothing runs.
    const bomb = `mutation { createApp(input: {image: "platform-test/busybox:latest"}) {
      ... on App { services { app { services { app { services { app { services { name } } } } } } } } ... on Error { code } } }`;
    for (const accept of ['application/json', 'application/graphql-response+json']) {
      expect(await same({ body: op(bomb), headers: { accept } })).toBe(true);
    }
    expect(last?.status).toBe(400);
    expect(last?.text).toContain('exceeds the limit of 2000');
  });

  test.each([
    ['a batch', JSON.stringify([{ query: ME }, { query: '{ me { username } }' }]), {}],
    ['extensions (APQ)', op(ME, { extensions: { persistedQuery: { version: 1, sha256Hash: 'abc' } } }), {}],
    ['an unknown member', op(ME, { extra: 1 }), {}],
    ['variables as a string', op(ME, { variables: '{}' }), {}],
    ['two operations, no name', op('query A { me { username } } query B { registries { name } }'), {}],
    ['not JSON', '{"query": ', {}],
    ['application/graphql+json', op(ME), { 'content-type': 'application/graphql+json' }],
    ['a form body', 'query=%7B%20me%20%7B%20username%20%7D%20%7D', { 'content-type': 'application/x-www-form-urlencoded' }],
  ])('%s goes to yoga', async (_label, body, headers: Record<string, string>) => {
    expect(await same({ body, headers })).toBe(false);
  });

  test('a GET goes to yoga', async () => {
    expect(await same({ method: 'GET', path: `/graphql?query=${encodeURIComponent(ME)}` })).toBe(false);
  });

  test('the media type chosen is the one yoga chooses', () => {
    expect(regularMediaType(undefined)).toBe('application/json');
    expect(regularMediaType('application/graphql-response+json, */*')).toBe('application/graphql-response+json');
    expect(regularMediaType('*/*, application/graphql-response+json')).toBe('application/json');
    expect(regularMediaType('application/*')).toBe('application/json');
    expect(regularMediaType('text/event-stream')).toBeNull();
  });
});
