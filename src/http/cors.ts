import type { IncomingMessage, ServerResponse } from 'node:http';
import cors from 'cors';
import { scalarText } from '../scalar-text';

/** Preflights are answered before auth (browsers send no token with one); credentials never, as CSRF needs them. */
export function createCors(origins: readonly string[]): (req: IncomingMessage, res: ServerResponse) => Promise<boolean> {
  const allowed = new Set(origins);
  const middleware = cors({
    origin: (origin, callback) => callback(null, origin !== undefined && allowed.has(origin)),
    credentials: false,
    methods: ['GET', 'HEAD', 'PUT', 'PATCH', 'POST', 'DELETE'],
    // graphql-sse's stream token, Apollo's client awareness and preflight marker, yoga's CSRF header.
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
        // The package passes an unlisted origin's preflight on: answered bare (the browser refuses), never 401.
        if (req.method !== 'OPTIONS') return resolve(false);
        res.writeHead(204, { 'content-length': '0' }).end();
        resolve(true);
      });
      // The origin check above is synchronous: not passed on means answered, as a preflight.
      if (res.writableEnded) resolve(true);
    });
}
