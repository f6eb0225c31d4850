import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../context';
import { RETRY_AFTER_SECONDS } from '../db/unavailable';
import { drainRequest } from '../net/request-body';
import { requireHost } from '../net/request-target';
import { finishRequest, startRequest } from '../observability/http-requests';

export type Handler = (req: IncomingMessage, res: ServerResponse) => void;

/** Answers the direct GraphQL path wrote (the request log says `graphql: "direct"` for them). */
export const servedDirectly = new WeakSet<ServerResponse>();

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  sendJsonText(res, status, JSON.stringify(body), headers);
}

/** JSON already written as text. */
export function sendJsonText(res: ServerResponse, status: number, text: string, headers: Record<string, string> = {}): void {
  res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text), ...headers });
  res.end(text);
}

export function errorHeaders(status: number): Record<string, string> {
  if (status === 401) return { 'www-authenticate': 'Bearer realm="platform"' };
  if (status === 503) return { 'retry-after': String(RETRY_AFTER_SECONDS) };
  return {};
}

/** One log line per request; a failure goes to `fail` once the rest of the body is read. */
export function withRequestLog(
  deps: AppDeps,
  handle: (req: IncomingMessage, res: ServerResponse) => Promise<void>,
  fail: (error: unknown, res: ServerResponse) => void,
): Handler {
  return (req, res) => {
    const started = process.hrtime.bigint();
    const requestId = startRequest(req, res);
    // On 'close', not 'finish': a subscription stream the client left never finishes.
    res.once('close', () => {
      const durationMs = Number(process.hrtime.bigint() - started) / 1e6;
      finishRequest(req, res, durationMs / 1000);
      // The path only: query strings may carry search terms, never log them with headers.
      deps.log.info(
        {
          method: req.method,
          path: (req.url ?? '/').split('?')[0],
          status: res.statusCode,
          durationMs: Math.round(durationMs * 10) / 10,
          requestId,
          ...(res.writableFinished ? {} : { aborted: true }),
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
