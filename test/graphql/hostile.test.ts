import { expect } from '@jest/globals';
import { request } from 'undici';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import { wsClient } from '../events/clients';

/**
 * Hostile documents any read token could send, with the default limits, over each transport:
 * each is refused quickly, and the service keeps answering /healthz while they are in flight.
 * (Before, 20 levels of fragments that spread the next one twice stalled the whole process
 * for 2.8 s; 30 levels would have for most of an hour.)
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
type Send = (query: string) => Promise<{ errors: Errors; raw: string }>;

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t.close());

const auth = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

const overHttp: Send = async (query) => {
  const res = await request(`${t.url}/graphql`, {
    method: 'POST',
    headers: { ...auth, accept: 'application/graphql-response+json' },
    body: JSON.stringify({ query }),
  });
  const raw = await res.body.text();
  expect(res.statusCode).toBe(400);
  return { errors: (JSON.parse(raw) as { errors: Errors }).errors, raw };
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
  return { errors: (JSON.parse(data ?? '{}') as { errors: Errors }).errors, raw };
};

/** graphql-ws: refused in validation it is an `error` message, before execution a `next` with errors. */
const overWs: Send = async (query) => {
  const client = wsClient(t.url);
  try {
    const outcome = await new Promise<unknown>((resolve) => {
      client.subscribe({ query }, { next: resolve, error: resolve, complete: () => resolve(undefined) });
    });
    const errors = Array.isArray(outcome) ? (outcome as Errors) : (outcome as { errors: Errors }).errors;
    return { errors, raw: JSON.stringify(outcome) };
  } finally {
    await client.dispose();
  }
};

async function healthzMs(): Promise<number> {
  const started = performance.now();
  const res = await request(`${t.url}/healthz`);
  await res.body.text();
  expect(res.statusCode).toBe(200);
  return performance.now() - started;
}

describe.each([
  ['HTTP', overHttp],
  ['SSE', overSse],
  ['graphql-ws', overWs],
])('over %s', (_transport, send) => {
  test.each(HOSTILE)('$name is refused at once, and /healthz answers meanwhile', async ({ query, message }) => {
    // What /healthz takes on this machine right now, with nothing hostile in flight.
    const idle = await healthzMs();
    const started = performance.now();
    // Several at once, so /healthz is measured while they are in flight.
    const hostile = Promise.all(Array.from({ length: 4 }, () => send(query).then((r) => ({ ...r, ms: performance.now() - started }))));
    const health = await healthzMs();
    const results = await hostile;
    for (const { errors, raw, ms } of results) {
      expect(errors).toEqual([
        expect.objectContaining({
          message: expect.stringMatching(message),
          extensions: { code: 'QUERY_TOO_COMPLEX', status: 400, fields: [] },
        }),
      ]);
      // Nothing internal in what a client sees.
      expect(raw).not.toMatch(/originalError|stack|"http"/);
      expect(ms).toBeLessThan(3000);
    }
    // Generous for a machine shared with other test runs; a stalled event loop takes seconds to hours.
    expect(health).toBeLessThan(Math.max(2000, 3 * idle));
    // The mutation never ran.
    expect((await t.graphql('{ apps { id } }')).body).toEqual({ data: { apps: [] } });
  });
});
