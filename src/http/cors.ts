import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import { scalarText } from '../scalar-text';

/**
 * CORS for every path (/graphql and the REST table alike), with the `cors` package (expressjs):
 * only origins in CORS_ORIGINS get Access-Control-Allow-Origin, and none by default. Preflights
 * are answered here, before authentication: a browser never sends a token with one.
 *
 * Credentials are never allowed: the API authenticates by bearer token (a header, which CORS
 * lets through by Access-Control-Allow-Headers), not cookies, so a page has no use for them, and
 * a credentialed cross-origin request is what CSRF needs.
 *
 * Resolves true when the request was a preflight and has been answered.
 */
export function createCors(origins: readonly string[]): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const allowed = new Set(origins);
  const middleware = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: false,
    methods: ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'],
    // The headers GraphQL clients send: graphql-sse's stream token, Apollo's client awareness and
    // preflight marker, yoga's CSRF header.
    allowedHeaders: [
      'authorization',
      'content-type',
      'accept',
      'x-graphql-event-stream-token',
      'apollographql-client-name',
      'apollographql-client-version',
      'apollo-require-preflight',
      'x-graphql-yoga-csrf',
    ],
    exposedHeaders: ['www-authenticate'],
    maxAge: 600,
    optionsSuccessStatus: 204,
  });
  return (req, res) =>
    new Promise((resolve, reject) => {
      middleware(req, res, (error?: unknown) => {
        if (error) return reject(error instanceof Error ? error : new Error(scalarText(error)));
        // An origin not listed: the package passes even its preflight on. Answered here all the
        // same, without any Access-Control-Allow-* (so the browser refuses), never with a 401.
        if (req.method !== 'OPTIONS') return resolve(false);
        res.writeHead(204, { 'content-length': '0' }).end();
        resolve(true);
      });
      // The origin check above is synchronous: not passed on means answered, as a preflight.
      if (res.writableEnded) resolve(true);
    });
}
