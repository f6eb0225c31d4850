import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { GraphQLSchema } from 'graphql';
import { RawBody, isUnsupported, type DialectRoute, type DialectRow } from '../../rest/dialect';
import { prepareRoutes, runRoute, type RestRequest } from '../../rest/executor';
import { expandScopes, type Identity } from '../auth/token.service';
import { createContext, type AppDeps } from '../context';
import { DomainError, MethodNotAllowedError, NotFoundError, NotImplementedError } from '../errors';
import { parseJson, readBody } from '../net/request-body';
import { describeError } from './errors';
import { checkInputTexts } from './input-limits';
import { sendJson, sendOutcome, withRequestLog, type Handler } from './server';
import { requestUrl } from '../net/request-target';

type Store = { row: DialectRow };

/**
 * The listener for the original web UI (LEGACY_UI_PORT): its paths, placements and shapes
 * (rest/legacy-ui-routes.ts), run by the same executor on the same operations as interface A.
 * That UI sends no credentials, so every call acts as the operator's LEGACY_UI_SCOPE: this
 * listener belongs on a trusted network beside the UI, never in front of anyone else.
 */
export function createLegacyUiHandler(
  deps: AppDeps,
  schema: GraphQLSchema,
  rows: readonly DialectRow[],
  scope: 'read' | 'write' | 'deploy',
): Handler {
  const runnable = rows.filter((row): row is DialectRoute => !isUnsupported(row));
  const prepared = prepareRoutes(schema, runnable);
  const router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true });
  const knownPaths = FindMyWay({ ignoreTrailingSlash: true });
  for (const row of rows) router.on(row.method, row.path, () => undefined, { row } satisfies Store);
  for (const path of new Set(rows.map((r) => r.path))) knownPaths.on('GET', path, () => undefined);
  const identity: Identity = { tokenId: null, username: 'legacy-ui', email: null, scopes: expandScopes([scope]) };

  const handle = async (req: IncomingMessage, res: ServerResponse): Promise<void> => {
    const url = requestUrl(req.url);
    if (url.pathname === '/healthz') return sendJson(res, 200, { status: 'ok' });
    const pathname = url.pathname.replace(/\.json$/, '');
    const found = router.find(req.method as HTTPMethod, pathname);
    if (!found) {
      if (knownPaths.find('GET', pathname)) throw new MethodNotAllowedError(`${req.method} is not allowed on ${pathname}`);
      throw new NotFoundError(`no such path: ${pathname}`);
    }
    const { row } = found.store as Store;
    if (isUnsupported(row)) throw new NotImplementedError(`${req.method} ${pathname} is not served: ${row.unsupported}`);
    let request: RestRequest = { params: found.params, query: Object.fromEntries(url.searchParams), body: parseJson(await readBody(req)) };
    // The same text rules as the main listener's doors: NULs, lengths, nesting.
    checkInputTexts({ ...request.params, ...request.query });
    checkInputTexts(request.body);
    for (const transform of row.request ?? []) request = transform(request);
    const outcome = await runRoute(schema, prepared.get(row)!, request, createContext(identity, deps));
    if (!outcome.ok) throw outcome.error;
    let body = outcome.body;
    for (const transform of row.response ?? []) body = transform(body, request);
    if (body instanceof RawBody) {
      res.writeHead(outcome.status, { 'content-type': body.contentType, 'content-length': Buffer.byteLength(body.text) });
      return void res.end(body.text);
    }
    sendOutcome(res, row, found.params, { status: outcome.status, body });
  };

  return withRequestLog(deps, handle, (error, res) => {
    const { status, body } = describeError(error, deps.log);
    if (res.headersSent) return void res.destroy();
    sendJson(res, status, { ...body, ...formErrors(error) });
  });
}

/**
 * ActiveResource reads a 422's `errors` as `{attribute: [messages]}` for the form's fields
 * (without it, it crashes on `code`); given beside `code`, `message` and `fields`.
 */
function formErrors(error: unknown): { errors?: Record<string, string[]> } {
  if (!(error instanceof DomainError) || (error.httpStatus !== 422 && error.httpStatus !== 400)) return {};
  const fields = error.fields.length ? error.fields : ['base'];
  return { errors: Object.fromEntries(fields.map((field) => [field, [error.message]])) };
}
