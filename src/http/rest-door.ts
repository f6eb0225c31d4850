import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { GraphQLSchema } from 'graphql';
import { prepareRoutes, runRoute } from '../../rest/executor';
import { isUnsupported, RawBody, type DialectRoute, type DialectRow, type RestRequest } from '../../rest/route-table';
import type { Identity } from '../auth/token.service';
import { createContext, type AppDeps } from '../context';
import { DomainError, MethodNotAllowedError, NotFoundError, NotImplementedError } from '../errors';
import { parseJson, readBody } from '../net/request-body';
import { observeOperation, operationLabels } from '../graphql/operation-metrics';
import { checkInputTexts } from '../parts/text-limits';
import { scalarText } from '../scalar-text';
import { errorHeaders, sendJson } from './answers';
import { describeError } from './errors';
import { setRoute } from '../observability/http-requests';

export interface RestDoorOptions {
  /** The caller: a bearer token or session on the main listener, the fixed legacy scope on the other. */
  identify(req: IncomingMessage): Promise<Identity>;
  errorMembers?(error: unknown): Record<string, unknown>;
}

export interface RestDoor {
  serve: (req: IncomingMessage, res: ServerResponse, url: URL) => Promise<void>;
  fail: (error: unknown, res: ServerResponse) => void;
}

/** The REST door of both listeners: a route table (interface A's or a client dialect's) onto named operations. */
export function createRestDoor(deps: AppDeps, schema: GraphQLSchema, rows: readonly DialectRow[], options: RestDoorOptions): RestDoor {
  const prepared = prepareRoutes(
    schema,
    rows.filter((row): row is DialectRoute => !isUnsupported(row)),
  );
  const router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true });
  for (const row of rows) router.on(row.method, row.path, () => undefined, { row });
  const methods = [...new Set(rows.map((row) => row.method))];

  return {
    async serve(req, res, url) {
      // ActiveResource clients put `.json` on every path (`/apps/5.json`); it names the one format served.
      const pathname = url.pathname.replace(/\.json$/, '');
      const found = router.find(req.method as HTTPMethod, pathname);
      if (!found) {
        const allowed = methods.filter((method) => router.find(method, pathname));
        if (allowed.length === 0) throw new NotFoundError(`no such path: ${pathname}`);
        res.setHeader('allow', allowed.join(', '));
        throw new MethodNotAllowedError(`${req.method} is not allowed on ${pathname}`);
      }
      const { row } = found.store as { row: DialectRow };
      setRoute(req, res, row.path);
      if (isUnsupported(row)) throw new NotImplementedError(`${req.method} ${pathname} is not served: ${row.unsupported}`);
      const identity = await options.identify(req);
      const query = Object.fromEntries(url.searchParams);
      const sent = parseJson(await readBody(req));
      // What the client sent, before any transform moves it.
      checkInputTexts({ ...found.params, ...query });
      checkInputTexts(sent);
      let request: RestRequest = { params: found.params, query, body: sent };
      for (const transform of row.request ?? []) request = transform(request);
      const operation = prepared.get(row)!;
      const outcome = await observeOperation(
        operationLabels(row.operation, operation.operation.operation, 'rest'),
        (done) => (!done.ok ? 'error' : done.failures.length ? 'partial' : 'success'),
        () => runRoute(schema, operation, request, createContext(identity, deps)),
      );
      if (!outcome.ok) throw outcome.error;
      let body = outcome.body;
      for (const transform of row.response ?? []) body = transform(body, request, outcome.failures);
      answer(res, row, found.params, outcome.status, body);
    },
    fail(error, res) {
      const { status, body } = describeError(error, deps.log);
      if (res.headersSent) return void res.destroy();
      sendJson(res, status, { ...body, ...options.errorMembers?.(error) }, errorHeaders(status));
    },
  };
}

function answer(res: ServerResponse, row: DialectRoute, params: Record<string, string | undefined>, status: number, body: unknown): void {
  if (body instanceof RawBody) {
    res.writeHead(status, { 'content-type': body.contentType, 'content-length': Buffer.byteLength(body.text) });
    return void res.end(body.text);
  }
  const location = row.location ? locationOf(row.location, params, body) : undefined;
  const headers: Record<string, string> = location ? { location } : {};
  if (status === 204) return void res.writeHead(204, headers).end();
  sendJson(res, status, body ?? null, headers);
}

function locationOf(template: string, params: Record<string, string | undefined>, body: unknown): string | undefined {
  const id = (body as { id?: unknown } | null)?.id;
  if (id === undefined || id === null) return undefined;
  return template.replace(/:(\w+)/g, (_m, name: string) => encodeURIComponent(name === 'id' ? scalarText(id) : (params[name] ?? '')));
}

/** ActiveResource reads a 422's `errors` as `{attribute: [messages]}` and crashes on `code` without it. */
export function formErrors(error: unknown): Record<string, unknown> {
  if (!(error instanceof DomainError) || (error.httpStatus !== 422 && error.httpStatus !== 400)) return {};
  const fields = error.fields.length ? error.fields : ['base'];
  return { errors: Object.fromEntries(fields.map((field) => [field, [error.message]])) };
}
