import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../context';
import { MethodNotAllowedError, RateLimitedError } from '../errors';
import { drainRequest, readBody } from '../net/request-body';
import { originOf } from '../net/request-origin';
import { errorHeaders, sendJson } from './answers';
import { describeError } from './errors';

export const HOOK_PREFIX = '/hooks/';

/** No token (senders sign), no CORS (senders are servers); answers its own errors so a 429 carries Retry-After. */
export async function serveHook(deps: AppDeps, req: IncomingMessage, res: ServerResponse, url: URL): Promise<void> {
  try {
    if (req.method !== 'POST') {
      res.setHeader('allow', 'POST');
      throw new MethodNotAllowedError(`${req.method} is not allowed on a hook: senders POST`);
    }
    const publicId = decodeURIComponent(url.pathname.slice(HOOK_PREFIX.length));
    const body = await readBody(req);
    const answer = await deps.automation.hooks.receive(
      publicId,
      req.headers,
      body,
      originOf(req, 'webhook', deps.automation.clientAddress),
    );
    sendJson(res, answer.status, answer.body);
  } catch (error) {
    // The rest of an oversized or refused body is read first (as every listener does), then answered.
    await drainRequest(req, res);
    const { status, body } = describeError(error, deps.log);
    const headers = error instanceof RateLimitedError ? { 'retry-after': String(error.retryAfterSeconds) } : errorHeaders(status);
    if (res.headersSent) return void res.destroy();
    sendJson(res, status, body, headers);
  }
}
