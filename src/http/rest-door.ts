import type { IncomingMessage, ServerResponse } from 'node:http';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import type { GraphQLSchema } from 'graphql';
import { prepareRoutes, runRoute, type RestOutcome } from '../../rest/executor';
import { isUnsupported, RawBody, type DialectRoute, type DialectRow, type RestRequest } from '../../rest/route-table';
import type { Identity } from '../auth/token.service';
import { createContext, type AppDeps } from '../context';
import { DomainError, MethodNotAllowedError, NotFoundError, NotImplementedError } from '../errors';
import { parseJson, readBody } from '../net/request-body';
import { observeOperation, operationLabels } from '../graphql/operation-metrics';
import { checkInputTexts } from '../parts/text-limits';
import { scalarText } from '../scalar-text';
import { errorHeaders, sendJson, sendJsonText } from './answers';
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
    { checkLeaves: deps.config.checkCompiledLeaves },
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
      const run = (set?: Record<string, unknown>) => runRoute(schema, operation, request, createContext(identity, deps), set);
      if (row.pages !== undefined) {
        return observeOperation(
          operationLabels(row.operation, operation.operation.operation, 'rest'),
          () => 'success',
          () => streamPages(res, (after) => run({ after })),
        );
      }
      const outcome = await observeOperation(
        operationLabels(row.operation, operation.operation.operation, 'rest'),
        (done) => (!done.ok ? 'error' : done.failures.length ? 'partial' : 'success'),
        () => run(),
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

interface ConnectionPage {
  edges: { node: unknown }[];
  pageInfo: { hasNextPage: boolean; endCursor: string | null };
}

/**
 * A paged route's answer: `[`, each page's nodes as the operation returns them, `]`, one page in
 * memory at a time and each written once the client has taken the last. Ids only grow, so a list
 * that changes meanwhile loses no row that stays and repeats none. A failure before the first
 * byte is an error answer; after it, the connection is cut, so the client never takes a truncated
 * array for the whole list.
 */
async function streamPages(res: ServerResponse, page: (after: string | undefined) => Promise<RestOutcome>): Promise<void> {
  let after: string | undefined;
  let wrote = false;
  for (let first = true; ; first = false) {
    const outcome = await page(after);
    if (!outcome.ok) {
      if (first) throw outcome.error;
      return void res.destroy();
    }
    const { edges, pageInfo } = outcome.body as ConnectionPage;
    const items = edges.map((edge) => JSON.stringify(edge.node)).join(',');
    const more = pageInfo.hasNextPage && pageInfo.endCursor !== null;
    // A list of one page is whole before the first byte: sent with its length, as any other answer.
    if (first && !more) return sendJsonText(res, 200, `[${items}]`);
    if (first) res.writeHead(200, { 'content-type': 'application/json; charset=utf-8' });
    const text = `${first ? '[' : ''}${wrote && items ? ',' : ''}${items}${more ? '' : ']'}`;
    wrote ||= items !== '';
    if (!more) return void res.end(text);
    if (!res.write(text)) await drained(res);
    if (res.destroyed) return;
    after = pageInfo.endCursor!;
  }
}

/** Once the client has taken what was written, or has gone; no listener is left behind. */
function drained(res: ServerResponse): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      res.off('drain', done);
      res.off('close', done);
      resolve();
    };
    res.on('drain', done);
    res.on('close', done);
  });
}

/** A route's success: its status, its body (none for 204; text for a download), and a create's `Location`. */
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
