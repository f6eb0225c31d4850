import fc from 'fast-check';
import { request } from 'undici';
import { routes } from '../../rest/routes';
import { agentRequest, startAgent, type RunningAgent } from '../agent/agent-harness';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';
import { makeGitRepo, pmx } from '../helpers/git';

/**
 * The project's own fuzz suite (issue 9). A seeded corpus of malformed and mutated requests over
 * every interface-A path, /graphql and every agent path, after seeding real objects. It fails on
 * a 5xx that is not an upstream failure (502/504), an error body that is not `{code, message,
 * fields}` JSON, a stack trace, a server path or a secret in any body, a change to the data by a
 * rejected request, or the service dying. `npm run fuzz` sends FUZZ_REQUESTS (10,000); `npm test`
 * a deterministic slice.
 */
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 9);
const SECRET = 'fuzz-registry-password-9b1e';

const AGENT_PATHS = [
  ['GET', '/metadata'],
  ['GET', '/deployments'],
  ['POST', '/deployments'],
  ['GET', '/deployments/:id'],
  ['DELETE', '/deployments/:id'],
  ['POST', '/deployments/:id/redeploy'],
  ['GET', '/healthz'],
] as const;

const hostile = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.constantFrom(
    '\u0000',
    'a\u0000b',
    '%00',
    '../../etc/passwd',
    '${jndi:x}',
    "'; drop table apps; --",
    'x'.repeat(70_000),
    '\uD800',
    '-1',
    '1e309',
    '9'.repeat(40),
  ),
  fc.integer().map(String),
);
const jsonish = fc.oneof(
  fc.jsonValue({ maxDepth: 3 }),
  fc.dictionary(
    fc.constantFrom(
      'name',
      'endpoint_url',
      'from',
      'command',
      'description',
      'compose_yaml',
      'template_id',
      'image',
      'auth_blob',
      'repo',
      'enabled',
      'username',
      'password',
      'categories',
      'ports',
      'links',
    ),
    fc.oneof(hostile, fc.jsonValue({ maxDepth: 2 })),
  ),
);
const rawBody = fc.oneof(
  jsonish.map((v) => JSON.stringify(v)),
  fc.string(),
  fc.constantFrom(
    '{',
    '{"name":',
    '[1,2',
    'null',
    '"\\u0000"',
    '{"a":'.repeat(500),
    `{"compose_yaml":"a: &a [${'x,'.repeat(50)}]\\nb: [*a,*a,*a,*a]"}`,
  ),
);

/** Percent-encoded; a lone surrogate goes as the invalid UTF-8 bytes it would be. */
function encode(text: string): string {
  try {
    return encodeURIComponent(text);
  } catch {
    return '%ED%A0%80';
  }
}

let t: TestApp;
let agent: RunningAgent;
let ids: number[] = [];

beforeAll(async () => {
  // No engine (the socket does not exist): app writes that reach it are upstream failures, 502.
  t = await startTestApp({ DOCKER_HOST: 'unix:///nonexistent/docker.sock', REGISTRY_TIMEOUT_MS: '500', AGENT_TIMEOUT_MS: '1000' });
  agent = await startAgent();
  const repo = makeGitRepo({ 'a.pmx': pmx('Fuzz A', { keywords: 'fuzz' }), 'b.pmx': pmx('Fuzz B') });
  ids.push((await t.request<Identified>('POST', '/template_repos', { body: { name: repo } })).body.id);
  ids.push(
    (
      await t.request<Identified>('POST', '/registries', {
        body: { name: 'fuzz', endpoint_url: 'https://fuzz.invalid', username: 'u', password: SECRET },
      })
    ).body.id,
  );
  ids.push((await t.request<Identified>('POST', '/deployment_targets', { body: { name: 'fuzz target', auth_blob: agent.token } })).body.id);
  for (const template of (await t.request<Identified[]>('GET', '/templates')).body) ids.push(template.id);
  ids = [...new Set([...ids, 0, 1, 2])];
}, 120_000);

afterAll(async () => {
  await t?.close();
  await agent?.close();
});

/** A digest of every table: equal before and after a rejected request. */
async function digest(): Promise<string> {
  const connection = t.app.orm.em.getConnection();
  const tables: { tablename: string }[] = await connection.execute(
    // The audit log and the domain events record every attempt, a failed one too: that is their purpose.
    "select tablename from pg_tables where schemaname = current_schema() and tablename not like 'mikro_orm%' and tablename not in ('audit_events', 'domain_events', 'api_token_uses') order by tablename",
  );
  const parts = (await Promise.all(
    tables.map(({ tablename }) =>
      connection.execute(`select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as d from "${tablename}" t`),
    ),
  )) as { d: string }[][];
  return parts.map((rows) => rows[0].d).join(',');
}

function problems(status: number, text: string, contentType: string, upstreamOk: boolean): string[] {
  const found: string[] = [];
  if (status >= 500 && !(upstreamOk && (status === 502 || status === 504))) found.push(`status ${status}`);
  if (status >= 400) {
    let body: unknown;
    try {
      body = JSON.parse(text);
    } catch {
      found.push('error body is not JSON');
    }
    const b = body as { code?: unknown; message?: unknown; fields?: unknown; errors?: unknown } | undefined;
    if (b && !Array.isArray(b.errors) && (typeof b.code !== 'number' || typeof b.message !== 'string' || typeof b.fields !== 'string'))
      found.push('error body is not {code,message,fields}');
    if (!contentType.includes('json')) found.push(`error content-type ${contentType}`);
  }
  if (/\bat .+\(.*:\d+:\d+\)|\n\s+at /.test(text)) found.push('stack trace in body');
  if (text.includes('/work/') || text.includes(t.dataDir)) found.push('server path in body');
  if (text.includes(SECRET) || text.includes(ADMIN_TOKEN)) found.push('secret in body');
  return found;
}

test(
  `${TOTAL} fuzzed requests: no 5xx but upstream failures, JSON errors, no leaks, no change by rejected requests`,
  async () => {
    const restPaths = routes.map((r) => [r.method, r.path] as const);
    const request_ = fc.record({
      kind: fc.constantFrom('rest', 'rest', 'rest', 'graphql', 'agent'),
      route: fc.nat(restPaths.length - 1),
      agentRoute: fc.nat(AGENT_PATHS.length - 1),
      method: fc.oneof(fc.constant(undefined), fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD')),
      id: fc.oneof(fc.constantFrom(...ids.map(String)), hostile.map(encode)),
      query: fc.option(fc.dictionary(fc.constantFrom('q', 'limit', 'after', 'first', 'x'), hostile.map(encode)), { nil: undefined }),
      body: fc.option(rawBody, { nil: undefined }),
      token: fc.constantFrom(ADMIN_TOKEN, ADMIN_TOKEN, ADMIN_TOKEN, '', 'plt_nope'),
      gql: fc.oneof(
        fc.constantFrom(
          '{ apps { id name } }',
          '{ search(q: $q) { items { name } } }',
          'mutation { createRegistry(input: $input) { __typename } }',
          '{ templateRepos { loadErrors { file } } }',
          '{{{{',
          'query($q: String!) { search(q: $q) { items { name } } }',
        ),
        fc.string(),
      ),
      variables: fc.option(jsonish, { nil: undefined }),
    });
    const samples = fc.sample(request_, { numRuns: TOTAL, seed: SEED });
    const failures: string[] = [];
    let before = await digest();
    for (const [i, r] of samples.entries()) {
      let status: number;
      let text: string;
      let contentType: string;
      let what: string;
      const upstreamOk = true;
      if (r.kind === 'agent') {
        const [method, path] = AGENT_PATHS[r.agentRoute];
        const target = path.replace(':id', r.id);
        what = `agent ${method} ${target}`;
        const res: { status: number; body: unknown; headers: Record<string, unknown> } = await agentRequest(agent, method, target, {
          raw: method === 'POST' ? r.body : undefined,
        }).catch((e: Error) => ({ status: 0, body: e.message, headers: {} }));
        status = res.status;
        text = typeof res.body === 'string' ? res.body : JSON.stringify(res.body ?? '');
        const header = res.headers['content-type'];
        contentType = typeof header === 'string' ? header : status >= 400 ? '' : 'json';
        if (status >= 400 && typeof res.body !== 'object')
          text = typeof res.body === 'string' ? res.body : (JSON.stringify(res.body) ?? 'undefined');
        if (status === 0) failures.push(`${i} ${what}: ${text}`);
      } else {
        let method: string;
        let path: string;
        let body: string | undefined = r.body;
        if (r.kind === 'graphql') {
          method = 'POST';
          path = '/graphql';
          body = JSON.stringify({ query: r.gql, variables: r.variables });
        } else {
          [method, path] = restPaths[r.route];
          method = r.method ?? method;
          path = path.replace(/:[A-Za-z_]+/g, r.id);
        }
        const query = r.query
          ? `?${Object.entries(r.query)
              .map(([k, v]) => `${k}=${v}`)
              .join('&')}`
          : '';
        what = `${method} ${path}${query}`.slice(0, 200);
        const noHeaders: Record<string, string> = {};
        const res = await request(`${t.url}${path}${query}`, {
          method: method as 'GET',
          headers: {
            ...(r.token ? { authorization: `Bearer ${r.token}` } : {}),
            ...(body !== undefined ? { 'content-type': 'application/json' } : {}),
          },
          body: method === 'GET' || method === 'HEAD' ? undefined : body,
        }).catch((e: Error) => ({ statusCode: 0, headers: noHeaders, body: { text: () => Promise.resolve(e.message) } }));
        status = res.statusCode;
        text = await res.body.text();
        contentType = String(res.headers['content-type'] ?? '');
        if (status === 0) failures.push(`${i} ${what}: connection failed: ${text}`);
        // HEAD answers carry no body by definition: only the status is judged.
        if (method === 'HEAD') {
          if (status >= 500 && status !== 502 && status !== 504) failures.push(`${i} ${what}: status ${status}`);
          continue;
        }
      }
      failures.push(...problems(status, text, contentType, upstreamOk).map((p) => `${i} ${what}: ${p}: ${text.slice(0, 200)}`));
      if (r.kind !== 'agent') {
        const after = await digest();
        if (status >= 400 && after !== before) failures.push(`${i} ${what}: rejected with ${status} but the data changed`);
        before = after;
      }
    }
    // The service is alive and still answers.
    expect((await t.request('GET', '/readyz', { token: null })).status).toBe(200);
    expect(failures).toEqual([]);
  },
  Math.max(120_000, TOTAL * 200),
);
