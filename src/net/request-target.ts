import type { IncomingMessage } from 'node:http';
import { BadRequestError } from '../errors';

/**
 * The request target as a URL. An origin-form target is a path even when it begins with `//`:
 * resolved against a base, `//search` would be a URL whose host is `search` and whose path is `/`.
 */
export function requestUrl(target = '/'): URL {
  return new URL(target.startsWith('/') ? `http://localhost${target}` : target, 'http://localhost');
}

/**
 * HTTP/1.1 requires a Host header. Node's own check answers an empty 400; the servers turn it off
 * (`answerClientErrorsAsJson`) and each door refuses the request here, with the JSON error body.
 */
export function requireHost(req: IncomingMessage): void {
  if (req.httpVersion === '1.1' && req.headers.host === undefined) throw new BadRequestError('a Host header is required', ['host']);
}
