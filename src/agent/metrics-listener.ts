import type { IncomingMessage, ServerResponse } from 'node:http';
import { errorBody, MethodNotAllowedError, NotFoundError, UnauthenticatedError, DomainError } from '../errors';
import type { Logger } from '../logger';
import { isPrivateAddress } from '../net/private-address';
import { requestUrl } from '../net/request-target';
import { collectProcessMetrics, metricsText } from '../observability/metrics';
import type { RequestListener } from './server';

/** Plain HTTP for Prometheus: no credentials on a private address, the agent's Basic auth anywhere else. */
export function createMetricsListener(
  host: string,
  authenticate: (header: string | undefined) => Promise<boolean>,
  log: Logger,
): RequestListener {
  collectProcessMetrics();
  const open = isPrivateAddress(host);
  const handle = async (req: IncomingMessage, res: ServerResponse) => {
    const { pathname } = requestUrl(req.url);
    if (pathname !== '/metrics') throw new NotFoundError(`No such path: ${pathname} (this listener serves /metrics).`);
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('Allow', 'GET, HEAD');
      throw new MethodNotAllowedError(`${req.method} is not allowed on /metrics.`);
    }
    if (!open && !(await authenticate(req.headers.authorization))) {
      res.setHeader('WWW-Authenticate', 'Basic realm="platform-agent", charset="UTF-8"');
      throw new UnauthenticatedError('Missing or wrong credentials.');
    }
    const { contentType, text } = await metricsText();
    res.writeHead(200, { 'content-type': contentType, 'content-length': Buffer.byteLength(text), 'cache-control': 'no-store' });
    res.end(req.method === 'HEAD' ? undefined : text);
  };
  return (req, res) => {
    handle(req, res).catch((error: unknown) => {
      if (!(error instanceof DomainError)) log.error({ err: error }, 'unexpected error on the metrics listener');
      const status = error instanceof DomainError ? error.httpStatus : 500;
      const body = error instanceof DomainError ? errorBody(error) : { code: 500, message: 'Unexpected error.', fields: '' };
      const text = JSON.stringify(body);
      if (res.headersSent) return void res.destroy();
      res.writeHead(status, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
      res.end(text);
    });
  };
}
