import { Pool } from 'undici';
import { percentiles } from './load';

/**
 * Scenario 6's clients, in their own process (the service runs in another, and the harness that
 * times /healthz in a third, so neither the clients' event loop nor the service's is in that
 * measurement). Each client is a loop that sends one request, waits for the whole answer, and
 * sends the next: a mix of reads, searches, GraphQL, writes and bad input. A request counts as an
 * error when its status is not the one its kind expects (every 5xx, and a 2xx for bad input), or
 * when it fails at the socket.
 */
export interface LoadStart {
  url: string;
  readToken: string;
  writeToken: string;
  templateIds: number[];
  clients: number;
  durationMs: number;
  graphqlGetTemplate: string;
}

export interface LoadKindResult {
  count: number;
  errors: number;
  p50: number;
  p99: number;
  /** Up to 3 examples of what went wrong, for the report. */
  examples: string[];
}

export interface LoadOutcome {
  requests: number;
  errors: number;
  p50: number;
  p99: number;
  byKind: Record<string, LoadKindResult>;
}

interface Kind {
  name: string;
  weight: number;
  /** Sends the kind's requests; resolves with a problem, or null when the answers were right. */
  run(pool: Pool, n: number): Promise<string | null>;
}

function kinds(start: LoadStart): Kind[] {
  const read = { authorization: `Bearer ${start.readToken}` };
  const write = { authorization: `Bearer ${start.writeToken}`, 'content-type': 'application/json' };
  const pick = (n: number) => start.templateIds[n % start.templateIds.length];
  const expect = async (pool: Pool, options: Parameters<Pool['request']>[0], status: number): Promise<string | null> => {
    const res = await pool.request(options);
    const text = await res.body.text();
    return res.statusCode === status
      ? null
      : `${options.method} ${options.path}: HTTP ${res.statusCode} (wanted ${status}) ${text.slice(0, 200)}`;
  };
  return [
    {
      name: 'GET /templates/{id}',
      weight: 30,
      run: (pool, n) => expect(pool, { method: 'GET', path: `/templates/${pick(n)}`, headers: read }, 200),
    },
    { name: 'GET /templates', weight: 5, run: (pool) => expect(pool, { method: 'GET', path: '/templates', headers: read }, 200) },
    {
      name: 'GET /search',
      weight: 15,
      run: (pool, n) => expect(pool, { method: 'GET', path: `/search?q=${n % 2 ? 'web' : 'cache'}`, headers: read }, 200),
    },
    {
      name: 'POST /graphql',
      weight: 15,
      run: async (pool, n) => {
        const res = await pool.request({
          method: 'POST',
          path: '/graphql',
          headers: { ...read, 'content-type': 'application/json' },
          body: JSON.stringify({ query: start.graphqlGetTemplate, operationName: 'GetTemplate', variables: { id: pick(n) } }),
        });
        const body = (await res.body.json()) as { data?: { template?: { id?: number } }; errors?: unknown };
        return res.statusCode === 200 && body.data?.template?.id === pick(n) && !body.errors
          ? null
          : `POST /graphql: HTTP ${res.statusCode} ${JSON.stringify(body).slice(0, 200)}`;
      },
    },
    {
      // A write and its undo: a registry created (201) and deleted (204).
      name: 'POST+DELETE /registries',
      weight: 10,
      run: async (pool, n) => {
        const res = await pool.request({
          method: 'POST',
          path: '/registries',
          headers: write,
          // Disabled: enabled, every search under way would ask these made-up hosts, and a burst of lookups
          // of names that do not exist waits out the resolver's 5 s timeout here (the write is what is timed).
          body: JSON.stringify({ name: `load-${process.pid}-${n}`, endpoint_url: `https://load${n}.example`, enabled: false }),
        });
        const text = await res.body.text();
        if (res.statusCode !== 201) return `POST /registries: HTTP ${res.statusCode} ${text.slice(0, 200)}`;
        const id = (JSON.parse(text) as { id: number }).id;
        return expect(pool, { method: 'DELETE', path: `/registries/${id}`, headers: write }, 204);
      },
    },
    {
      name: 'bad: malformed JSON',
      weight: 5,
      run: (pool) => expect(pool, { method: 'POST', path: '/registries', headers: write, body: '{"name": ' }, 400),
    },
    { name: 'bad: NUL in a query', weight: 5, run: (pool) => expect(pool, { method: 'GET', path: '/search?q=%00', headers: read }, 400) },
    {
      name: 'bad: no token',
      weight: 5,
      run: (pool, n) => expect(pool, { method: 'GET', path: `/templates/${pick(n)}` }, 401),
    },
    {
      // GraphQL over HTTP with application/json: a validation error is 200 with errors, no data.
      name: 'bad: unknown GraphQL field',
      weight: 5,
      run: async (pool) => {
        const res = await pool.request({
          method: 'POST',
          path: '/graphql',
          headers: { ...read, 'content-type': 'application/json' },
          body: '{"query":"{ nope }"}',
        });
        const body = (await res.body.json()) as { data?: unknown; errors?: { extensions?: { code?: string } }[] };
        return res.statusCode === 200 && body.data === undefined && body.errors?.[0]?.extensions?.code === 'GRAPHQL_VALIDATION_FAILED'
          ? null
          : `POST /graphql { nope }: HTTP ${res.statusCode} ${JSON.stringify(body).slice(0, 200)}`;
      },
    },
    {
      name: 'bad: unknown template',
      weight: 5,
      run: (pool) => expect(pool, { method: 'GET', path: '/templates/999999999', headers: read }, 404),
    },
  ];
}

async function run(start: LoadStart): Promise<LoadOutcome> {
  const pool = new Pool(start.url, { connections: start.clients, pipelining: 1, headersTimeout: 60_000, bodyTimeout: 60_000 });
  const all = kinds(start);
  const totalWeight = all.reduce((sum, k) => sum + k.weight, 0);
  const samples = new Map<string, number[]>(all.map((k) => [k.name, []]));
  const errors = new Map<string, string[]>(all.map((k) => [k.name, []]));
  const until = performance.now() + start.durationMs;
  let seq = 0;
  // A fixed rotation through the weights, spread over the clients: reproducible, no Math.random.
  const wheel = all.flatMap((k) => Array.from({ length: k.weight }, () => k));
  const client = async (c: number) => {
    for (let i = c * 7; performance.now() < until; i++) {
      const kind = wheel[(i * 37) % totalWeight];
      const n = seq++;
      const began = performance.now();
      const problem = await kind.run(pool, n).catch((error: unknown) => `${kind.name}: ${String(error)}`);
      samples.get(kind.name)!.push(performance.now() - began);
      if (problem) errors.get(kind.name)!.push(problem);
    }
  };
  await Promise.all(Array.from({ length: start.clients }, (_, c) => client(c)));
  await pool.close();
  const byKind: Record<string, LoadKindResult> = {};
  for (const k of all) {
    const s = samples.get(k.name)!;
    const e = errors.get(k.name)!;
    const p = s.length ? percentiles99(s) : { p50: 0, p99: 0 };
    byKind[k.name] = { count: s.length, errors: e.length, ...p, examples: e.slice(0, 3) };
  }
  const everything = [...samples.values()].flat();
  return {
    requests: everything.length,
    errors: [...errors.values()].reduce((sum, e) => sum + e.length, 0),
    ...percentiles99(everything),
    byKind,
  };
}

function percentiles99(samples: number[]): { p50: number; p99: number } {
  const sorted = [...samples].sort((a, b) => a - b);
  const at = (q: number) => sorted[Math.min(sorted.length - 1, Math.ceil(q * sorted.length) - 1)];
  return { p50: percentiles(samples).p50, p99: Math.round(at(0.99) * 100) / 100 };
}

process.on('message', (message: { id: number; op: string; args?: unknown }) => {
  if (message.op !== 'run') return;
  run(message.args as LoadStart).then(
    (result) => process.send!({ id: message.id, result }),
    (error: unknown) => process.send!({ id: message.id, error: String(error instanceof Error ? error.stack : error) }),
  );
});
