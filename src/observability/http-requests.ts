import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { httpRequests, methodLabel } from './metrics';
import { nameServerSpan } from './tracing';

/** What a request is counted under when no route claimed it: never its raw path. */
export const UNMATCHED = 'unmatched';

const routes = new WeakMap<ServerResponse, string>();

// Paths the main service's listeners answer outside the route tables.
const FIXED = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json', '/graphql', '/graphql/stream', '/console/session', '/']);

/** The main service's own paths (and the console's assets) as route labels. */
export function mainServiceRoute(pathname: string): string | undefined {
  return FIXED.has(pathname) ? pathname : pathname.startsWith('/assets/') ? '/assets/*' : undefined;
}

/** A caller's own id is kept when it is a plain token a log line can carry; else one is made. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

/**
 * Starts observing a request: answers carry `x-request-id` (the caller's, or a new one), and the
 * request is labelled with its route template (`setRoute`) for metrics and its trace span.
 */
export function startRequest(
  req: IncomingMessage,
  res: ServerResponse,
  fixedRoute: (pathname: string) => string | undefined = mainServiceRoute,
): string {
  const sent = req.headers['x-request-id'];
  const id = typeof sent === 'string' && REQUEST_ID.test(sent) ? sent : randomUUID();
  res.setHeader('x-request-id', id);
  const fixed = fixedRoute((req.url ?? '/').split('?')[0]);
  if (fixed) setRoute(req, res, fixed);
  return id;
}

/** The route template the request matched (a REST row's path, `/graphql`, …). */
export function setRoute(req: IncomingMessage, res: ServerResponse, route: string): void {
  routes.set(res, route);
  nameServerSpan(req.method ?? 'GET', route);
}

/** Records the answered request: method, route template (or `unmatched`), status, duration. */
export function finishRequest(req: IncomingMessage, res: ServerResponse, seconds: number): void {
  httpRequests.observe({ method: methodLabel(req.method), route: routes.get(res) ?? UNMATCHED, status: String(res.statusCode) }, seconds);
}
