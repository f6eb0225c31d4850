import FindMyWay, { type HTTPMethod } from 'find-my-way';
import fc from 'fast-check';
import { request } from 'undici';
import type { RestRoute } from '../../rest/route-table';
import { extraRoutes, routes } from '../../rest/routes';
import { agentRoutes } from '../../src/agent/routes';
import { requestUrl } from '../../src/net/request-target';
import { agentRequest, startAgent, type RunningAgent } from '../agent/agent-harness';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';
import { makeGitRepo, pmx } from '../helpers/git';

/**
 * The project's own fuzz suite. A seeded corpus of malformed and mutated requests over every
 * interface-A path, /graphql (POST, and GET with query strings) and every agent path, after
 * seeding real objects. It fails on a 5xx that is not the failure of an upstream the route really
 * calls (502/504, see UPSTREAM), an error body that is not `{code, message, fields}` JSON, a stack
 * trace, a server path or a secret in any body, a change to the data by a rejected request, or the
 * service dying; and on a `//` path that is not a 404, a GET /graphql whose `variables` or
 * `extensions` is not JSON that is not a 400, or a body of another media type than JSON that is
 * not refused with a 4xx. `npm run fuzz` sends FUZZ_REQUESTS (10,000); `npm test` a deterministic
 * slice.
 */
const TOTAL = Number(process.env.FUZZ_REQUESTS ?? 300);
const SEED = Number(process.env.FUZZ_SEED ?? 9);
const SECRET = 'fuzz-registry-password-9b1e';

/** Every path the main listener routes (the spec's and the original UI's), and the agent's. */
const REST_ROUTES: readonly RestRoute[] = [...routes, ...extraRoutes];
const AGENT_ROUTES = agentRoutes(undefined as never, undefined as never).map(({ method, path }) => ({ method, path }));

/**
 * The routes that reach an upstream in this fixture, each with why: only these may answer 502 or
 * 504. The engine's socket does not exist, the agent is up but its adapter (127.0.0.1:9) refuses,
 * registry `fuzz` does not resolve and Docker Hub is out of reach, and template repos are read
 * with git. A 502 or 504 anywhere else is a wrongly mapped error, reported like any other 5xx.
 */
const UPSTREAM: Record<string, string> = {
  'POST /template_repos': 'git: the repository is read to load its templates',
  'POST /template_repos/:id': 'git: the repository is read again',
  'POST /templates/:id/save': 'git: the template file is committed and pushed to its repo',
  'POST /apps': "git: compose build contexts and a template repo's compose files (the engine's failure is only recorded)",
  'PUT /apps/:id': 'engine: every container is recreated, and its failure is the answer',
  'DELETE /apps/:id': 'engine: the containers and network go before the rows',
  'GET /apps/:id/journal': "engine: the containers' logs",
  'GET /apps/:app_id/services/:id/journal': "engine: the container's logs",
  'DELETE /apps/:app_id/services/:id': 'engine: the container goes before the row',
  'GET /repositories/*': 'engine (local images) or registry (tags)',
  'GET /deployment_targets/:targetId/deployments': 'agent: lists its deployments',
  'POST /deployment_targets/:targetId/deployments': 'agent: creates the deployment (its adapter refuses)',
  'GET /deployment_targets/:targetId/deployments/:id': 'agent: the status comes from its adapter',
  'DELETE /deployment_targets/:targetId/deployments/:id': 'agent: removes the deployment through its adapter',
  'POST /deployment_targets/:targetId/deployments/:id/redeploy': 'agent: redeploys through its adapter',
  'POST /deployment_targets/:id/metadata/refresh': "agent: its metadata names the adapter's, which refuses",
};

/**
 * The agent's routes that ask its adapter (refusing here); the others answer from its database
 * (GET /deployments asks the adapter only with ?include=status, which is not sent).
 */
const AGENT_UPSTREAM: Record<string, string> = {
  'GET /metadata': "the adapter's version and type",
  'POST /deployments': 'the adapter creates the services',
  'GET /deployments/:id': "the services' status",
  'DELETE /deployments/:id': 'the adapter removes the services',
  'POST /deployments/:id/redeploy': 'the adapter creates the new services',
};

/** A router over a table, as the server builds it: what route a request really reaches. */
function routerOf(table: readonly { method: string; path: string }[]): (method: string, path: string) => string | undefined {
  const router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true });
  for (const route of table) router.on(route.method as HTTPMethod, route.path, () => undefined, { key: `${route.method} ${route.path}` });
  return (method, path) => (router.find(method as HTTPMethod, path)?.store as { key: string } | undefined)?.key;
}
const restRouteOf = routerOf(REST_ROUTES);
const agentRouteOf = routerOf(AGENT_ROUTES);
const reaches = (table: Record<string, string>, key: string | undefined): boolean => key !== undefined && Object.hasOwn(table, key);

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

/** Fields as a form would post them: never empty, never JSON. */
const formFields = fc
  .tuple(fc.constantFrom('name', 'query', 'variables', 'image', 'endpoint_url'), hostile, fc.dictionary(fc.string(), hostile))
  .map(([key, value, more]) => [[key, value] as [string, string], ...Object.entries(more)]);

/** A body in a media type that is not JSON, as a client of that type would send it. */
const foreignBody = fc.oneof(
  formFields.map((fields) => ({ type: 'application/x-www-form-urlencoded', body: new URLSearchParams(fields).toString() })),
  formFields.map((fields) => ({
    type: 'multipart/form-data; boundary=fuzzfuzz',
    body: `${fields.map(([k, v]) => `--fuzzfuzz\r\nContent-Disposition: form-data; name="${encode(k)}"\r\n\r\n${v}\r\n`).join('')}--fuzzfuzz--\r\n`,
  })),
  fc.string().map((text) => ({ type: 'text/plain', body: `plain text: ${text}` })),
  fc.string().map((text) => ({ type: 'text/plain;charset=utf-8', body: `<query>${text}</query>` })),
);

/** Ids as they land in a path: known, hostile and encoded, or holding a raw or encoded slash. */
const pathId = (known: string[]) =>
  fc.oneof(
    { weight: 4, arbitrary: fc.oneof(fc.constantFrom(...known), hostile.map(encode)) },
    {
      weight: 1,
      arbitrary: fc.oneof(
        fc.constantFrom('/', '%2F', '%2f', '1/', '/1', '1%2F2', '..', '.', '%2E%2E', 'save'),
        fc.tuple(fc.constantFrom(...known), fc.constantFrom(...known, 'save', 'redeploy', 'services', '..')).map(([a, b]) => `${a}/${b}`),
        fc.tuple(fc.constantFrom(...known), fc.constantFrom(...known)).map(([a, b]) => `${a}%2F${b}`),
      ),
    },
  );

/** A GET /graphql query string: `query`, and `variables`/`extensions` that may not be JSON. */
const graphqlGetQuery = fc.record(
  {
    query: fc.oneof(
      fc.constantFrom('{ me { username } }', '{ apps { id name } }', 'query($q: String!) { search(q: $q) { items { name } } }'),
      hostile,
    ),
    variables: fc.oneof(
      jsonish.map((v) => JSON.stringify(v)),
      fc.constantFrom('{', '{"q":', '[1', 'x', "{'q':1}", '%7B'),
      hostile,
    ),
    extensions: fc.oneof(
      fc.constant('{"persistedQuery":{"version":1,"sha256Hash":"abc"}}'),
      fc.constantFrom('{', 'nope', '{"a":}'),
      hostile,
    ),
    operationName: hostile,
  },
  { requiredKeys: [] },
);

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
  // An app and its service, stored though the engine is unreachable: reads of them must answer
  // without it (states unknown), while writes that need it are upstream failures.
  const app = await t.request<Identified>('POST', '/apps', { body: { image: 'fuzz/busybox' } });
  ids.push(app.body.id);
  for (const service of (await t.request<Identified[]>('GET', `/apps/${app.body.id}/services`)).body) ids.push(service.id);
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
    // The audit log and the domain events record every attempt, a failed one too: that is their purpose
    // (as a failed revision is: the revisions are compared without those below).
    "select tablename from pg_tables where schemaname = current_schema() and tablename not like 'mikro_orm%' and tablename not in ('audit_events', 'domain_events', 'api_token_uses') order by tablename",
  );
  const parts = (await Promise.all(
    tables.map(({ tablename }) =>
      connection.execute(
        `select md5(coalesce(string_agg(t::text, '|' order by t::text), '')) as d from "${tablename}" t${tablename === 'revisions' ? " where t.outcome <> 'failed'" : ''}`,
      ),
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

/** A JSON parameter of a GET /graphql that the server must refuse: present, not empty, not JSON. */
function notJson(params: URLSearchParams, name: string): boolean {
  const text = params.get(name);
  if (!text) return false;
  try {
    JSON.parse(text);
    return false;
  } catch {
    return true;
  }
}

test('every route named in the upstream tables exists', () => {
  const rest = new Set(REST_ROUTES.map((r) => `${r.method} ${r.path}`));
  const agentKeys = new Set(AGENT_ROUTES.map((r) => `${r.method} ${r.path}`));
  expect(Object.keys(UPSTREAM).filter((key) => !rest.has(key))).toEqual([]);
  expect(Object.keys(AGENT_UPSTREAM).filter((key) => !agentKeys.has(key))).toEqual([]);
});

test(
  `${TOTAL} fuzzed requests and every route: no 5xx but upstream failures, JSON errors, no leaks, no change by rejected requests`,
  async () => {
    const known = ids.map(String);
    const request_ = fc.record({
      kind: fc.constantFrom('rest', 'rest', 'rest', 'graphql', 'graphql-get', 'agent', 'slashes'),
      route: fc.nat(REST_ROUTES.length - 1),
      agentRoute: fc.nat(AGENT_ROUTES.length - 1),
      method: fc.oneof(fc.constant(undefined), fc.constantFrom('GET', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS', 'HEAD')),
      id: pathId(known),
      query: fc.option(fc.dictionary(fc.constantFrom('q', 'limit', 'after', 'first', 'x'), hostile.map(encode)), { nil: undefined }),
      body: fc.option(rawBody, { nil: undefined }),
      foreign: fc.oneof({ weight: 3, arbitrary: fc.constant(undefined) }, { weight: 1, arbitrary: foreignBody }),
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
      graphqlGet: graphqlGetQuery,
      slashes: fc.constantFrom(
        '//',
        '///',
        '//graphql',
        '//healthz',
        '//readyz',
        '//console/session',
        '//assets/x.js',
        '//apps/1',
        '//evil.example/apps',
      ),
    });
    const random = fc.sample(request_, { numRuns: TOTAL, seed: SEED });
    // Then every route once per seeded object, as the table says (a random slice reaches few of
    // them with an id that exists): deletes last, so the others still find what they read.
    const [template] = random;
    const sweep = [
      ...REST_ROUTES.map((route, i) => ({ route, i }))
        .sort((a, b) => Number(a.route.method === 'DELETE') - Number(b.route.method === 'DELETE'))
        .flatMap(({ i }) => ids.map((id) => ({ ...template, kind: 'rest', route: i, id: String(id) }))),
      ...AGENT_ROUTES.map((_route, i) => ({ ...template, kind: 'agent', agentRoute: i, id: '1' })),
    ].map((r) => ({
      ...r,
      method: undefined,
      query: { q: 'fuzz', local: 'true' },
      body: undefined,
      foreign: undefined,
      token: ADMIN_TOKEN,
    }));
    const samples = [...random, ...sweep];
    const failures: string[] = [];
    let before = await digest();
    for (const [i, r] of samples.entries()) {
      let status: number;
      let text: string;
      let contentType: string;
      let what: string;
      let upstreamOk = false;
      if (r.kind === 'agent') {
        const { method, path } = AGENT_ROUTES[r.agentRoute];
        const target = path.replace(':id', r.id);
        what = `agent ${method} ${target}`;
        upstreamOk = reaches(AGENT_UPSTREAM, agentRouteOf(method, target));
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
        let type: string | undefined = body === undefined ? undefined : 'application/json';
        let query = r.query
          ? `?${Object.entries(r.query)
              .map(([k, v]) => `${k}=${v}`)
              .join('&')}`
          : '';
        if (r.kind === 'graphql') {
          method = 'POST';
          path = '/graphql';
          body = JSON.stringify({ query: r.gql, variables: r.variables });
          type = 'application/json';
        } else if (r.kind === 'graphql-get') {
          method = 'GET';
          path = '/graphql';
          body = undefined;
          query = `?${Object.entries(r.graphqlGet)
            .map(([k, v]) => `${k}=${encode(v)}`)
            .join('&')}`;
        } else if (r.kind === 'slashes') {
          method = r.method ?? 'GET';
          path = r.slashes;
          query = '';
        } else {
          const route = REST_ROUTES[r.route];
          method = r.method ?? route.method;
          path = route.path.replace(/:[A-Za-z_]+/g, r.id).replace('*', r.id);
        }
        if (r.foreign && (r.kind === 'rest' || r.kind === 'graphql')) ({ type, body } = r.foreign);
        const sendsBody = body !== undefined && method !== 'GET' && method !== 'HEAD';
        what = `${method} ${path}${query}${sendsBody ? ` [${type}]` : ''}`.slice(0, 200);
        // The route the server really reaches: an id holding a slash may make it another one.
        if (r.kind === 'rest') upstreamOk = reaches(UPSTREAM, restRouteOf(method, requestUrl(path).pathname.replace(/\.json$/, '')));
        const noHeaders: Record<string, string> = {};
        const res = await request(`${t.url}${path}${query}`, {
          method: method as 'GET',
          headers: {
            ...(r.token ? { authorization: `Bearer ${r.token}` } : {}),
            ...(sendsBody && type ? { 'content-type': type } : {}),
          },
          body: sendsBody ? body : undefined,
        }).catch((e: Error) => ({ statusCode: 0, headers: noHeaders, body: { text: () => Promise.resolve(e.message) } }));
        status = res.statusCode;
        text = await res.body.text();
        contentType = String(res.headers['content-type'] ?? '');
        if (status === 0) failures.push(`${i} ${what}: connection failed: ${text}`);
        // A path beginning with // is a path (not a host), and none is routed. (A preflight,
        // OPTIONS, is answered 204 on every path, known or not, before routing.)
        if (r.kind === 'slashes' && method !== 'OPTIONS' && status !== 404)
          failures.push(`${i} ${what}: status ${status} for a // path, not 404`);
        // A JSON parameter that does not parse is the client's error, never yoga's 500: variables
        // are read first (a well-formed one may still break a text rule, also a 400). A URL over
        // the header limit is refused (431) before anything reads it.
        if (r.kind === 'graphql-get' && r.token === ADMIN_TOKEN && status !== 431) {
          const params = new URLSearchParams(query);
          const badVariables = { code: 400, message: 'the variables parameter is not valid JSON', fields: 'variables' };
          if (notJson(params, 'variables') && (status !== 400 || text !== JSON.stringify(badVariables)))
            failures.push(`${i} ${what}: expected 400 ${JSON.stringify(badVariables)}, got ${status} ${text.slice(0, 200)}`);
          else if (notJson(params, 'extensions') && status !== 400)
            failures.push(`${i} ${what}: extensions that are not JSON answered ${status}, not 400: ${text.slice(0, 200)}`);
        }
        // A body that is not JSON, of a media type that is not JSON, is refused (401, 403, 400...).
        if (sendsBody && r.foreign && method !== 'OPTIONS' && type === r.foreign.type && (status < 400 || status >= 500))
          failures.push(`${i} ${what}: status ${status} for a ${type} body, not a 4xx`);
        // HEAD answers carry no body by definition: only the status is judged.
        if (method === 'HEAD') {
          if (status >= 500 && !(upstreamOk && (status === 502 || status === 504))) failures.push(`${i} ${what}: status ${status}`);
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
