import type { IncomingMessage, ServerResponse } from 'node:http';
import { createServer, type Server } from 'node:https';
import type { AddressInfo } from 'node:net';
import Router from 'find-my-way';
import {
  BadRequestError,
  DomainError,
  MethodNotAllowedError,
  NotFoundError,
  PayloadTooLargeError,
  UnauthenticatedError,
  errorBody,
} from '../errors';
import type { Logger } from '../logger';
import { checkInputTexts } from '../parts/text-limits';
import { answerClientErrorsAsJson } from '../net/client-errors';
import { closeServer } from '../net/close-server';
import { drainRequest, jsonErrorPosition, MAX_BODY_BYTES, readBody } from '../net/request-body';
import { requireHost } from '../net/request-target';
import { finishRequest, setRoute, startRequest } from '../observability/http-requests';

type Method = 'GET' | 'POST' | 'DELETE';

export interface Route {
  method: Method;
  path: string;
  /** Answer without Basic auth (health checks). */
  public?: boolean;
  handle(request: { params: Record<string, string>; query: URLSearchParams; body: unknown }): Promise<{ status: number; body?: unknown }>;
}

export interface HandlerOptions {
  routes: Route[];
  log: Logger;
  authenticate(authorization: string | undefined): Promise<boolean>;
}

export type RequestListener = (req: IncomingMessage, res: ServerResponse) => void;

/** Transport-free, so it sits behind node:https in main.ts and in tests alike. */
export function createRequestHandler(options: HandlerOptions): RequestListener {
  const router = Router({ ignoreTrailingSlash: true });
  const methods = new Set<Method>();
  for (const route of options.routes) {
    router.on(route.method, route.path, () => undefined, route);
    methods.add(route.method);
  }

  async function handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    requireHost(req);
    const method = (req.method ?? 'GET').toUpperCase() as Method;
    const [path, search] = (req.url ?? '/').split('?');
    const found = router.find(method, path);
    const route = found?.store as Route | undefined;
    if (route) setRoute(req, res, route.path);
    if (!route?.public && !(await options.authenticate(req.headers.authorization))) {
      res.setHeader('WWW-Authenticate', 'Basic realm="platform-agent", charset="UTF-8"');
      throw new UnauthenticatedError('Missing or wrong credentials.');
    }
    if (!found || !route) {
      const allowed = [...methods].filter((other) => router.find(other, path));
      if (allowed.length > 0) {
        res.setHeader('Allow', allowed.join(', '));
        throw new MethodNotAllowedError(`${method} is not allowed on ${path}.`);
      }
      throw new NotFoundError(`No such path: ${path}.`);
    }
    const body = method === 'POST' ? await readJson(req) : undefined;
    // The descriptor is stored in the agent's database: the same text rules as the main service.
    checkInputTexts(found.params);
    checkInputTexts(body);
    const result = await route.handle({ params: found.params as Record<string, string>, query: new URLSearchParams(search ?? ''), body });
    send(res, result.status, result.body);
  }

  return (req, res) => {
    const started = Date.now();
    // x-request-id on every answer; the route label is the table's path (set once routed).
    startRequest(req, res, () => undefined);
    handle(req, res)
      .catch(async (error: unknown) => {
        await drainRequest(req, res);
        if (error instanceof DomainError) {
          send(res, error.httpStatus, errorBody(error));
          return;
        }
        options.log.error({ err: error, method: req.method, path: req.url?.split('?')[0] }, 'unexpected error');
        send(res, 500, { code: 500, message: 'Unexpected error.', fields: '' });
      })
      .finally(() => {
        finishRequest(req, res, (Date.now() - started) / 1000);
        options.log.debug(
          { method: req.method, path: req.url?.split('?')[0], status: res.statusCode, ms: Date.now() - started },
          'request',
        );
      });
  };
}

function send(res: ServerResponse, status: number, body: unknown): void {
  if (res.headersSent) {
    res.end();
    return;
  }
  res.statusCode = status;
  if (body === undefined || status === 204) {
    res.end();
    return;
  }
  const text = JSON.stringify(body);
  res.setHeader('Content-Type', 'application/json; charset=utf-8');
  res.setHeader('Content-Length', Buffer.byteLength(text));
  res.end(text);
}

async function readJson(req: IncomingMessage): Promise<unknown> {
  const text = (await readBody(req, MAX_BODY_BYTES, tooLarge)).toString('utf8');
  if (text.trim() === '') return undefined;
  try {
    return JSON.parse(text) as unknown;
  } catch (error) {
    throw new BadRequestError(`The request body is not valid JSON${jsonErrorPosition(error)}.`, ['body']);
  }
}

function tooLarge(): PayloadTooLargeError {
  return new PayloadTooLargeError(`The request body is larger than ${MAX_BODY_BYTES} bytes.`, ['body']);
}

export interface Listening {
  server: Server;
  /** https://<host>:<port> as bound (port 0 resolved). */
  url: string;
  /** Stops listening; requests in progress get `drainMs` (default none) to finish before their connections close. */
  close(drainMs?: number): Promise<void>;
}

/** HTTPS only: the agent never speaks plain HTTP, even on loopback. */
export async function listenHttps(
  handler: RequestListener,
  tls: { keyPem: string; certPem: string },
  host: string,
  port: number,
): Promise<Listening> {
  const server = createServer({ key: tls.keyPem, cert: tls.certPem, minVersion: 'TLSv1.2' }, handler);
  answerClientErrorsAsJson(server, tooLarge);
  server.headersTimeout = 30_000;
  server.requestTimeout = 120_000;
  // The service keeps a connection per target open between its fan-out queries; node's 5 s would
  // close them between a console's refreshes, and each query would pay every TLS handshake again.
  server.keepAliveTimeout = 65_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve());
  });
  const address = server.address() as AddressInfo;
  const shownHost = address.family === 'IPv6' ? `[${address.address}]` : address.address;
  return {
    server,
    url: `https://${shownHost}:${address.port}`,
    close: (drainMs = 0) => closeServer(server, drainMs),
  };
}
