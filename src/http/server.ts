import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import type { RestRoute } from '../../rest/route-table';
import type { Identity } from '../auth/token.service';
import type { AppDeps } from '../context';
import { BadRequestError, NotFoundError, UnavailableError } from '../errors';
import { readBody } from '../net/request-body';
import { requestUrl } from '../net/request-target';
import { checkInputTexts } from '../parts/text-limits';
import { sendJson, withRequestLog, type Handler } from './answers';
import { handleConsoleSession, SESSION_PATH } from './console-session';
import { defaultConsoleDir, loadConsoleAssets } from './console-static';
import { createCors } from './cors';
import { GRAPHQL_SSE_PATH, graphqlMaskError, type Yoga } from './graphql';
import { createDirectGraphQL } from './graphql-direct';
import { authenticate, authenticateGraphQL } from './identify';
import { createMetricsEndpoint } from './metrics-endpoint';
import { serveOpenApi } from './openapi-endpoint';
import { createRestDoor } from './rest-door';
import { HOOK_PREFIX, serveHook } from './hook-door';
import { withOrigin } from './request-origin';

export function createHandler(deps: AppDeps, schema: GraphQLSchema, yoga: Yoga, routes: readonly RestRoute[]): Handler {
  const rest = createRestDoor(deps, schema, routes, {
    identify: async (req) => withOrigin(deps, req, await authenticate(deps, req), 'rest'),
  });
  const cors = createCors(deps.config.corsOrigins);
  const consoleAssets = loadConsoleAssets(deps.config.consoleDir ?? defaultConsoleDir());
  const direct = createDirectGraphQL(yoga, { enabled: deps.config.directGraphQL, maskError: graphqlMaskError(deps) });
  const metrics = deps.config.metrics.onMainPort ? createMetricsEndpoint(deps, deps.config.host) : undefined;
  const openApi = serveOpenApi(deps, schema, routes);

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = requestUrl(req.url);
    // Deploy hooks: signed by their senders (servers), no token, no CORS.
    if (url.pathname.startsWith(HOOK_PREFIX)) return serveHook(deps, req, res, url);
    if (await cors(req, res)) return;
    // Liveness: the process answers. Readiness: it can serve, which needs the database.
    if (url.pathname === '/healthz') return sendJson(res, 200, { status: 'ok' });
    if (url.pathname === '/readyz') return readyz(deps, res);
    if (url.pathname === '/metrics' && metrics) return metrics(req, res);
    if (url.pathname === '/openapi.json') return openApi(req, res);
    if (url.pathname === SESSION_PATH) return handleConsoleSession(deps, req, res);
    if (consoleAssets?.serve(req, res, url.pathname)) return;
    if (url.pathname === '/' && !consoleAssets) throw new NotFoundError('the web console is not built here: run npm run build');
    if (url.pathname === '/graphql' || url.pathname === GRAPHQL_SSE_PATH) {
      if (url.pathname === '/graphql' && isGraphiQLPage(req, url)) return forward(yoga, req, res, url, undefined, Buffer.alloc(0));
      const identity = withOrigin(deps, req, await authenticateGraphQL(deps, req, url), 'graphql');
      const body = req.method === 'GET' || req.method === 'HEAD' ? Buffer.alloc(0) : await readBody(req);
      // Parsed once, for the variables' text rules and the direct path (yoga parses its own copy).
      const json = bodyJson(body);
      checkGraphQLVariables(req, url, body, json);
      if (url.pathname === '/graphql' && json && (await direct(req, res, identity, json.value))) return;
      return forward(yoga, req, res, url, identity, body);
    }
    return rest.serve(req, res, url);
  };

  return withRequestLog(deps, handle, rest.fail);
}

/** A balancer waits this long at most for the agents' connections to open after a start. */
export const READY_OPENING_BOUND_MS = 5_000;

async function readyz(deps: AppDeps, res: ServerResponse): Promise<void> {
  // Ready once the agents' connections are open, so the first fan-out query sent here does not pay a
  // TLS handshake per agent; an agent that is slow to answer holds readiness for the bound only.
  if (deps.agents.isOpening(READY_OPENING_BOUND_MS)) {
    throw new UnavailableError('Opening the connections to the deployment targets; ready shortly.');
  }
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

/** null when there is no body or it is not JSON: yoga answers that itself. */
function bodyJson(body: Buffer): { value: unknown } | null {
  if (body.length === 0) return null;
  try {
    return { value: JSON.parse(body.toString('utf8')) as unknown };
  } catch {
    return null;
  }
}

/** REST's text rules for variables; a bad JSON parameter is a 400 here, as yoga would throw it as unexpected. */
function checkGraphQLVariables(req: IncomingMessage, url: URL, body: Buffer, json: { value: unknown } | null): void {
  if (body.length > 0 && !/^application\/x-www-form-urlencoded\b/i.test(req.headers['content-type'] ?? '')) {
    if (!json) return; // not JSON: yoga answers that itself
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

const STREAMED = /^(text\/event-stream|multipart\/mixed)/i;

/** The body is already read and bounded; a one-document answer is written with one `end`, no stream. */
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
  // A client that goes away cancels the stream, which ends the subscription (its LISTEN, its poller).
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
