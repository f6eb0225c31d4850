import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { GraphQLSchema } from 'graphql';
import { prepareRoutes, runRoute } from '../../rest/executor';
import type { RestRoute } from '../../rest/route';
import type { Identity } from '../auth/token.service';
import { SubscriptionTicketService } from '../auth/ticket.service';
import { TokenService } from '../auth/token.service';
import { createContext, type AppDeps } from '../context';
import { BadRequestError, MethodNotAllowedError, NotFoundError, UnauthenticatedError, UnavailableError } from '../errors';
import { RETRY_AFTER_SECONDS } from '../db/unavailable';
import { drainRequest, parseJson, readBody } from '../net/request-body';
import { handleConsoleSession, identifySession, SESSION_PATH } from './console-session';
import { defaultConsoleDir, loadConsoleAssets } from './console-static';
import { createCors } from './cors';
import { checkInputTexts } from './input-limits';
import { describeError } from './errors';
import { graphqlMaskError, type Yoga } from './graphql';
import { createDirectGraphQL, servedDirectly } from './graphql-direct';
import { scalarText } from '../scalar-text';
import { requestUrl, requireHost } from '../net/request-target';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

interface RouteStore {
  route: RestRoute;
}

/** The whole HTTP surface: /healthz, /graphql, interface A's REST table, and the web console (/, /assets/*, /console/session). */
export function createHandler(deps: AppDeps, schema: GraphQLSchema, yoga: Yoga, routes: readonly RestRoute[]): Handler {
  const prepared = prepareRoutes(schema, routes);
  const router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true });
  for (const route of routes) router.on(route.method, route.path, () => undefined, { route } satisfies RouteStore);
  const knownPaths = FindMyWay({ ignoreTrailingSlash: true });
  for (const path of new Set(routes.map((r) => r.path))) knownPaths.on('GET', path, () => undefined);

  const cors = createCors(deps.config.corsOrigins);
  const consoleAssets = loadConsoleAssets(deps.config.consoleDir ?? defaultConsoleDir());
  const direct = createDirectGraphQL(yoga, { enabled: deps.config.directGraphQL, maskError: graphqlMaskError(deps) });

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    if (await cors(req, res)) return;
    const url = requestUrl(req.url);
    // Liveness: the process answers. Readiness: it can serve, which needs the database.
    if (url.pathname === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (url.pathname === '/readyz') return readyz(deps, res);
    if (url.pathname === SESSION_PATH) return handleConsoleSession(deps, req, res);
    if (consoleAssets?.serve(req, res, url.pathname)) return;
    if (url.pathname === '/' && !consoleAssets) throw new NotFoundError('the web console is not built here: run npm run build');
    // /graphql/stream: graphql-sse's protocol, both modes (yoga's plugin-graphql-sse).
    if (url.pathname === '/graphql' || url.pathname === GRAPHQL_SSE_PATH) {
      if (url.pathname === '/graphql' && isGraphiQLPage(req, url)) return forward(yoga, req, res, url, undefined, Buffer.alloc(0));
      const identity = await authenticateGraphQL(deps, req, url);
      const body = req.method === 'GET' || req.method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
      // Parsed once, for the variables' text rules and the direct path (yoga parses its own copy).
      const json = bodyJson(body);
      checkGraphQLVariables(req, url, body, json);
      if (url.pathname === '/graphql' && json && (await direct(req, res, identity, json.value))) return;
      return forward(yoga, req, res, url, identity, body);
    }
    // ActiveResource clients put `.json` on every path (`/apps/5.json`); it names the one format served.
    const pathname = url.pathname.replace(/\.json$/, '');
    const found = router.find(req.method as HTTPMethod, pathname);
    if (!found) {
      if (knownPaths.find('GET', pathname)) throw new MethodNotAllowedError(`${req.method} is not allowed on ${pathname}`);
      throw new NotFoundError(`no such path: ${pathname}`);
    }
    const identity = await authenticate(deps, req);
    const body = parseJson(await readBody(req));
    checkInputTexts({ ...found.params, ...Object.fromEntries(url.searchParams) });
    checkInputTexts(body);
    const { route } = found.store as RouteStore;
    const context = createContext(identity, deps);
    const outcome = await runRoute(
      schema,
      prepared.get(route)!,
      { params: found.params, query: Object.fromEntries(url.searchParams), body },
      context,
    );
    if (!outcome.ok) throw outcome.error;
    sendOutcome(res, route, found.params, outcome);
  };

  return withRequestLog(deps, handle, (error, res) => {
    const { status, body } = describeError(error, deps.log);
    if (res.headersSent) return void res.destroy();
    sendJson(res, status, body, errorHeaders(status));
  });
}

/** Runs `handle`, logs one line per request, and hands any failure to `fail` for its answer. */
export function withRequestLog(
  deps: AppDeps,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  fail: (error: unknown, res: ServerResponse) => void,
): Handler {
  return (req, res) => {
    const started = process.hrtime.bigint();
    // On 'close', not 'finish': a subscription stream the client left never finishes, and is
    // logged once, with how long it lasted and `aborted`.
    res.once('close', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      const aborted = res.writableFinished ? {} : { aborted: true };
      // The path only: query strings may carry search terms, never log them with headers.
      deps.log.info(
        {
          method: req.method,
          path: (req.url ?? '/').split('?')[0],
          status: res.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
          ...aborted,
          ...(servedDirectly.has(res) ? { graphql: 'direct' } : {}),
        },
        'request',
      );
    });
    Promise.resolve()
      .then(() => {
        requireHost(req);
        return handle(req, res);
      })
      .catch(async (error: unknown) => {
        await drainRequest(req, res);
        fail(error, res);
      });
  };
}

/** A route's success: its status, its body (none for 204), and a create's `Location`. */
export function sendOutcome(
  res: ServerResponse,
  route: RestRoute,
  params: Record<string, string | undefined>,
  outcome: { status: number; body: unknown },
): void {
  const location = route.location ? locationOf(route.location, params, outcome.body) : undefined;
  const headers: Record<string, string> = location ? { location } : {};
  if (outcome.status === 204) {
    res.writeHead(204, headers).end();
    return;
  }
  sendJson(res, outcome.status, outcome.body ?? null, headers);
}

function locationOf(template: string, params: Record<string, string | undefined>, body: unknown): string | undefined {
  const id = (body as { id?: unknown } | null)?.id;
  if (id === undefined || id === null) return undefined;
  return template.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(name === 'id' ? scalarText(id) : (params[name] ?? '')));
}

export function errorHeaders(status: number): Record<string, string> {
  if (status === 401) return { 'www-authenticate': 'Bearer realm="platform"' };
  if (status === 503) return { 'retry-after': String(RETRY_AFTER_SECONDS) };
  return {};
}

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

/** A bearer token; without an Authorization header, the web console's session cookie. */
async function authenticate(deps: AppDeps, req: IncomingMessage): Promise<Identity> {
  if (req.headers.authorization === undefined) {
    const session = await identifySession(deps, req);
    if (session) return session;
  }
  return identify(deps, req.headers.authorization);
}

export const GRAPHQL_SSE_PATH = '/graphql/stream';

/**
 * A bearer token, or on a GET without one (a browser's EventSource cannot send headers) a
 * subscription ticket in `?ticket=`: used up here, and removed from the URL yoga sees.
 */
async function authenticateGraphQL(deps: AppDeps, req: IncomingMessage, url: URL): Promise<Identity> {
  const ticket = url.searchParams.get('ticket');
  if (req.headers.authorization !== undefined || req.method !== 'GET' || ticket === null) return authenticate(deps, req);
  url.searchParams.delete('ticket');
  return redeemTicket(deps, ticket);
}

/** The read-only caller behind a subscription ticket (an SSE GET's `?ticket=`, graphql-ws's connectionParams). */
export async function redeemTicket(deps: AppDeps, ticket: string): Promise<Identity> {
  const identity = await new SubscriptionTicketService(deps.orm.em.fork(), deps.config.subscriptionTicketTtlSeconds).redeem(ticket);
  if (!identity) throw new UnauthenticatedError('the subscription ticket is not valid (unknown, used or expired)');
  return identity;
}

/** The caller behind an `Authorization: Bearer` value (HTTP header, or graphql-ws connectionParams). */
export async function identify(deps: AppDeps, authorization: string | undefined): Promise<Identity> {
  const header = authorization ?? '';
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  if (!match) throw new UnauthenticatedError('a bearer token is required (Authorization: Bearer <token>)');
  const em = deps.orm.em.fork();
  const identity = await new TokenService(em, deps.config.adminToken).authenticate(match[1]);
  if (!identity) throw new UnauthenticatedError('the bearer token is not valid');
  return identity;
}

async function readyz(deps: AppDeps, res: ServerResponse): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  try {
    await Promise.race([
      deps.orm.em.getConnection().execute('select 1'),
      new Promise((_resolve, reject) => (timer = setTimeout(() => reject(new Error('timeout')), 2000))),
    ]);
    sendJson(res, 200, { status: 'ready' });
  } catch {
    throw new UnavailableError('The database is not reachable; try again shortly.');
  } finally {
    clearTimeout(timer);
  }
}

/** A body's JSON value; null when there is no body or it is not JSON (yoga answers that itself). */
function bodyJson(body: Buffer): { value: unknown } | null {
  if (body.length === 0) return null;
  try {
    return { value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return null;
  }
}

/**
 * Variables (JSON body, or the query string's and a form body's JSON parameters) under the same
 * text rules as REST input. A JSON parameter that does not parse is a 400 naming it: yoga's own
 * parser would throw it as an unexpected error.
 */
function checkGraphQLVariables(req: IncomingMessage, url: URL, body: Buffer, json: { value: unknown } | null): void {
  if (body.length > 0 && !/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) {
    if (!json) return; // not JSON: yoga answers that itself
    // A batch is an array of operations, each with its own variables.
    const parsed = json.value;
    for (const op of Array.isArray(parsed) ? parsed : [parsed]) checkInputTexts((op as { variables?: unknown } | null)?.variables);
    return;
  }
  const params = body.length > 0 ? new URLSearchParams(body.toString('utf8')) : url.searchParams;
  checkInputTexts(jsonParameter(params, 'variables'));
  jsonParameter(params, 'extensions');
}

function jsonParameter(params: URLSearchParams, name: string): unknown {
  const text = params.get(name);
  if (!text) return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch {
    throw new BadRequestError(`the ${name} parameter is not valid JSON`, [name]);
  }
}

/** A browser opening /graphql gets GraphiQL without a token; it sends the token on each query. */
function isGraphiQLPage(req: IncomingMessage, url: URL): boolean {
  return req.method === 'GET' && !url.searchParams.has('query') && (req.headers.accept ?? '').includes('text/html');
}

/** Yoga's answers that never end on their own: SSE (subscriptions, graphql-sse) and incremental delivery. */
const STREAMED = /^(text\/event-stream|multipart\/mixed)/i;

/**
 * Hands a request to yoga and writes its answer. The body was read (and bounded) here already,
 * so yoga gets it as a Buffer and the request's own header object (no copy); an answer that is
 * one document is written with one `end` (yoga's JSON is a string: no stream is made for it).
 */
async function forward(
  yoga: Yoga,
  req: IncomingMessage,
  res: ServerResponse,
  url: URL,
  identity: Identity | undefined,
  body: Buffer,
): Promise<void> {
  const request = new yoga.fetchAPI.Request(url.href, {
    method: req.method,
    headers: requestHeaders(req),
    body: body.length ? (body as unknown as BodyInit) : undefined,
  });
  const response = await yoga.fetch(request, { identity: identity as Identity });
  const outHeaders: Record<string, string> = {};
  response.headers.forEach((value, key) => (outHeaders[key] = value));
  if (!STREAMED.test(response.headers.get('content-type') ?? '')) {
    const text = await response.text();
    res.writeHead(response.status, outHeaders);
    return void res.end(text);
  }
  res.writeHead(response.status, outHeaders);
  if (!response.body) return void res.end();
  // Streamed chunk by chunk: subscriptions over SSE never end on their own. A client that goes
  // away cancels the stream, which ends the subscription behind it (and its LISTEN, its poller).
  const reader = response.body.getReader();
  const cancel = () => void reader.cancel().catch(() => undefined);
  res.once('close', cancel);
  try {
    for (let chunk = await reader.read(); !chunk.done; chunk = await reader.read()) res.write(chunk.value);
  } finally {
    res.off('close', cancel);
  }
  res.end();
}

/** node's header object as it is; a header node keeps as a list (only set-cookie) joined, as fetch's Headers join. */
function requestHeaders(req: IncomingMessage): Record<string, string> {
  const headers = req.headers;
  for (const value of Object.values(headers)) {
    if (typeof value !== 'string') {
      const joined: Record<string, string> = {};
      for (const [key, v] of Object.entries(headers)) if (v !== undefined) joined[key] = Array.isArray(v) ? v.join(', ') : v;
      return joined;
    }
  }
  return headers as Record<string, string>;
}
