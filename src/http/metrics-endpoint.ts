import type { IncomingMessage, ServerResponse } from 'node:http';
import type { AppDeps } from '../context';
import { ForbiddenError, MethodNotAllowedError, NotFoundError } from '../errors';
import { isPrivateAddress } from '../net/private-address';
import { requestUrl } from '../net/request-target';
import { collectProcessMetrics, metricsText } from '../observability/metrics';
import { errorHeaders, sendJson, withRequestLog, type Handler } from './answers';
import { describeError } from './errors';
import { identify } from './identify';

/** No token on a private bound address, as scrapers on the same network expect; an admin token elsewhere. */
export function createMetricsEndpoint(deps: AppDeps, boundHost: string): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  collectProcessMetrics();
  const open = isPrivateAddress(boundHost);
  return async (req, res) => {
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      throw new MethodNotAllowedError(`${req.method} is not allowed on /metrics`);
    }
    if (!open) {
      const identity = await identify(deps, req.headers.authorization);
      if (!identity.scopes.has('admin')) throw new ForbiddenError('/metrics needs a token with the admin scope', []);
    }
    const { contentType, text } = await metricsText();
    res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : text);
  };
}

export function createMetricsHandler(deps: AppDeps): Handler {
  const metrics = createMetricsEndpoint(deps, deps.config.metrics.host);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const { pathname } = requestUrl(req.url);
    if (pathname === '/metrics') return metrics(req, res);
    throw new NotFoundError(`no such path: ${pathname} (this listener serves /metrics)`);
  };
  return withRequestLog(deps, handle, (error, res) => {
    const { status, body } = describeError(error, deps.log);
    if (res.headersSent) return void res.destroy();
    sendJson(res, status, body, errorHeaders(status));
  });
}
