import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { httpRequests, methodLabel } from './metrics';
import { nameServerSpan } from './tracing';

/** What a request is counted under when no route claimed it: never its raw path. */
export const UNMATCHED = 'unmatched';

const routes = new WeakMap<ServerResponse, string>();

const FIXED = new Set(['/healthz', '/readyz', '/metrics', '/openapi.json', '/graphql', '/graphql/stream', '/console/session', '/']);

export function mainServiceRoute(pathname: string): string | undefined {
  return FIXED.has(pathname) ? pathname : pathname.startsWith('/assets/') ? '/assets/*' : undefined;
}

/** A caller's own id is kept when it is a plain token a log line can carry; else one is made. */
const REQUEST_ID = /^[A-Za-z0-9._:-]{1,128}$/;

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

export function setRoute(req: IncomingMessage, res: ServerResponse, route: string): void {
  routes.set(res, route);
  nameServerSpan(req.method ?? 'GET', route);
}

export function finishRequest(req: IncomingMessage, res: ServerResponse, seconds: number): void {
  httpRequests.observe({ method: methodLabel(req.method), route: routes.get(res) ?? UNMATCHED, status: String(res.statusCode) }, seconds);
}
