import type { IncomingMessage } from 'node:http';
import { BadRequestError } from '../errors';

/** An origin-form `//search` is a path; resolved against a base it would be host `search`. */
export function requestUrl(target = '/'): URL {
  return new URL(target.startsWith('/') ? `http://localhost${target}` : target, 'http://localhost');
}

/** Node's own check answers an empty 400, so it is off and each door refuses here with the JSON body. */
export function requireHost(req: IncomingMessage): void {
  if (req.httpVersion === '1.1' && req.headers.host === undefined) throw new BadRequestError('a Host header is required', ['host']);
}
