import type { IncomingMessage, ServerResponse } from 'node:http';
import type { GraphQLSchema } from 'graphql';
import { openApiDocument, printOpenApi } from '../../rest/openapi';
import type { RestRoute } from '../../rest/route-table';
import type { AppDeps } from '../context';
import { MethodNotAllowedError, NotFoundError } from '../errors';

/** Paths, not data, so no token; hidden when GraphQL introspection is off. */
export function serveOpenApi(deps: AppDeps, schema: GraphQLSchema, routes: readonly RestRoute[]) {
  let text: string | undefined;
  return (req: IncomingMessage, res: ServerResponse): void => {
    if (!deps.config.introspection) throw new NotFoundError('no such path: /openapi.json (GRAPHQL_INTROSPECTION is off)');
    if (req.method !== 'GET' && req.method !== 'HEAD') {
      res.setHeader('allow', 'GET, HEAD');
      throw new MethodNotAllowedError(`${req.method} is not allowed on /openapi.json`);
    }
    text ??= printOpenApi(openApiDocument(schema, routes, { version: deps.version }));
    res.writeHead(200, { 'content-type': 'application/json; charset=utf-8', 'content-length': Buffer.byteLength(text) });
    res.end(req.method === 'HEAD' ? undefined : text);
  };
}
