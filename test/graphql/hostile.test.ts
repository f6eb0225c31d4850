import { expect } from '@jest/globals';
import { isObjectType, type GraphQLSchema } from 'graphql';
import { request } from 'undici';
import { getSchema } from '../../schema/index';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import { wsClient } from '../events/clients';

/**
 * Hostile documents any read token could send, with the default limits, over each transport:
 * each is refused by a limit before any resolver runs, and the service answers /healthz while
 * they are in flight. (Before, 20 levels of fragments that spread the next one twice stalled the
 * whole process for 2.8 s; 30 levels would have for most of an hour, and this test with it: the
 * server runs in this process, so a stall is a test that never ends, not a slow answer.)
 */
const LEVELS = 30;
const exponentialFragments = `{ ...F0 }\n${Array.from({ length: LEVELS }, (_, i) =>
  i === LEVELS - 1 ? `fragment F${i} on Query { templates { name } }` : `fragment F${i} on Query { ...F${i + 1} ...F${i + 1} }`,
).join('\n')}`;

const aliasFlood = `{ ${Array.from({ length: 600 }, (_, i) => `a${i}: templateTypes { name }`).join(' ')} }`;

// 10 services × 10 × 10 × 10 × 10 under a mutation's typed result (a union), depth 11:
// estimated at 19 before, and it ran.
const unionCostBomb = `mutation { createApp(input: {image: "platform-test/busybox:latest"}) {
  ... on App { services { app { services { app { services { app { services { app { services { name } } } } } } } } } }
  ... on Error { code message }
} }`;

// One field repeated, with and without a sub-selection (4,800 and 4,004 tokens, under the token
// limit): graphql-js's OverlappingFieldsCanBeMerged compares every pair. Measured before the
// repeats limit, validation alone took 2.5 s (the first) and 0.3 s (the second) on this shared
// machine, then ended in graphql-js's bare "Validation aborted.".
const repeatedField = `{ ${'me { username } '.repeat(1200)} }`;
const repeatedLeaf = `{ me { ${'username '.repeat(4000)} } }`;

const HOSTILE = [
  {
    name: 'an exponential-fragment document',
    query: exponentialFragments,
    message: /^query fragment spreads \d+ exceeds the limit of 500$/,
  },
  { name: 'an alias flood', query: aliasFlood, message: /^query aliases 600 exceeds the limit of 30$/ },
  { name: 'a cost bomb inside a union fragment', query: unionCostBomb, message: /^query cost \d+ exceeds the limit of 50000$/ },
  { name: 'a repeated field', query: repeatedField, message: /^query repeats of the field "me" 1200 exceeds the limit of 50$/ },
  { name: 'a repeated leaf', query: repeatedLeaf, message: /^query repeats of the field "username" 4000 exceeds the limit of 50$/ },
];

type Errors = { message: string; extensions?: Record<string, unknown> }[];
/** What one transport answered: its payload's data and errors, its raw text, and the HTTP status where there is one. */
type Send = (query: string) => Promise<{ status?: number; data?: unknown; errors?: Errors; raw: string }>;

/**
 * Counts the calls of every root field's resolver: nothing below a root field runs without it.
 * Wrapped before the app is built, so every way of executing (yoga, the direct path, graphql-ws)
 * sees the wrapped ones.
 */
function countRootResolvers(schema: GraphQLSchema): { calls: string[]; restore: () => void } {
  const calls: string[] = [];
  const restores: (() => void)[] = [];
  for (const type of [schema.getQueryType(), schema.getMutationType(), schema.getSubscriptionType()]) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields())) {
      const { resolve, subscribe } = field;
      if (resolve)
        field.resolve = (...args) => {
          calls.push(`${type.name}.${field.name}`);
          return resolve(...args);
        };
      if (subscribe)
        field.subscribe = (...args) => {
          calls.push(`${type.name}.${field.name}`);
          return subscribe(...args);
        };
      restores.push(() => Object.assign(field, { resolve, subscribe }));
    }
  }
  return { calls, restore: () => restores.forEach((restore) => restore()) };
}

let t: TestApp;
let resolvers: ReturnType<typeof countRootResolvers>;
beforeAll(async () => {
  resolvers = countRootResolvers(getSchema());
  t = await startTestApp();
});
afterAll(async () => {
  await t.close();
  resolvers.restore();
});

const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

const overHttp: Send = async (query) => {
  const res = await request(`${t.url}/graphql`, {
    method: 'POST',
    headers: { ...auth, accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query }),
  });
  const raw = await res.body.text();
  return { status: res.statusCode, ...(JSON.parse(raw) as { data?: unknown; errors?: Errors }), raw };
};

/** Server-sent events, read as an EventSource would: the `next` frame's data. */
const overSse: Send = async (query) => {
  const res = await request(`${t.url}/graphql`, {
    method: 'POST',
    headers: { ...auth, accept: 'text/event-stream' },
    body: JSON.stringify({ query }),
  });
  const raw = await res.body.text();
  expect(res.headers['content-type']).toMatch(/^text\/event-stream/);
  const frame = raw.split('\n\n').find((f) => f.startsWith('event: next'));
  const data = frame
    ?.split('\n')
    .filter((l) => l.startsWith('data:'))
    .map((l) => l.slice(5).trim())
    .join('\n');
  return { ...(JSON.parse(data ?? '{}') as { data?: unknown; errors?: Errors }), raw };
};

/** graphql-ws: refused in validation it is an `error` message, before execution a `next` with errors. */
const overWs: Send = async (query) => {
  const client = wsClient(t.url);
  try {
    const outcome = await new Promise<unknown>((resolve) => {
      client.subscribe({ query }, { next: resolve, error: resolve, complete: () => resolve(undefined) });
    });
    const payload = Array.isArray(outcome) ? { errors: outcome as Errors } : (outcome as { data?: unknown; errors?: Errors });
    return { ...payload, raw: JSON.stringify(outcome) };
  } finally {
    await client.dispose();
  }
};

// The HTTP status where the transport has one per operation (SSE streams answer 200 and carry the errors).
describe.each([
  ['HTTP', overHttp, 400],
  ['SSE', overSse, undefined],
  ['graphql-ws', overWs, undefined],
])('over %s', (_transport, send, refusedStatus) => {
  test.each(HOSTILE)('$name is refused before any resolver runs, and /healthz answers meanwhile', async ({ query, message }) => {
    // The counter counts over this transport: a document within the limits runs its root field.
    const calls = resolvers.calls.length;
    expect((await send('{ me { username } }')).data).toEqual({ me: { username: 'admin' } });
    expect(resolvers.calls.slice(calls)).toEqual(['Query.me']);

    const before = resolvers.calls.length;
    // Several at once, and /healthz asked in the same turn, before any of them can be answered:
    // it is answered, as they are (a stall would be a test that never ends, not a slow answer).
    const hostile = Promise.all(Array.from({ length: 4 }, () => send(query)));
    const healthz = await request(`${t.url}/healthz`);
    expect(healthz.statusCode).toBe(200);
    expect(await healthz.body.json()).toEqual({ status: 'ok' });
    for (const { status, errors, raw } of await hostile) {
      expect(status).toBe(refusedStatus);
      expect(errors).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(message),
          extensions: { code: 'QUERY_TOO_COMPLEX', status: 400, fields: [] },
        }),
      ]);
      // Nothing internal in what a client sees.
      expect(raw).not.toMatch(/originalError|stack|"http"/);
    }
    // Refused before execution: no resolver ran, and the mutation wrote nothing.
    expect(resolvers.calls.slice(before)).toEqual([]);
    expect((await t.graphql('{ apps { id } }')).body).toEqual({ data: { apps: [] } });
  });
});
