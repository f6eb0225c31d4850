import { readFileSync } from 'node:fs';
import path from 'node:path';
import Ajv2020, { type ValidateFunction } from 'ajv/dist/2020';
import FindMyWay, { type HTTPMethod } from 'find-my-way';
import { extraRoutes, routes } from '../../rest/routes';
import type { RestRoute } from '../../rest/route-table';

export const OPENAPI_FILE = path.resolve(__dirname, '../../rest/openapi.json');

export type OpenApiDocument = { paths: Record<string, Record<string, { responses: Record<string, unknown> }>> };

/** One REST exchange as a client saw it. */
export interface Exchange {
  method: string;
  /** The request target: path and query. */
  target: string;
  status: number;
  /** The parsed JSON body, or the text; undefined when empty. */
  body: unknown;
}

/**
 * Checks REST answers against the OpenAPI document (rest/openapi.json) with ajv: a success must
 * have the route's documented status and match its schema, an error must be a documented status
 * with the error body. Paths outside the route table (unknown paths, /graphql, /healthz) are not
 * its business: `check` returns null for them.
 */
export class ContractChecker {
  private readonly ajv: Ajv2020;
  private readonly router = FindMyWay({ ignoreTrailingSlash: true, caseSensitive: true });
  private readonly validators = new Map<string, ValidateFunction>();
  /** Every route a check matched, as `METHOD path` of the table, with the statuses seen. */
  readonly seen = new Map<string, Set<number>>();

  constructor(private readonly document: OpenApiDocument = JSON.parse(readFileSync(OPENAPI_FILE, 'utf8')) as OpenApiDocument) {
    // The document is one schema resource: its $refs (#/components/...) resolve within it.
    this.ajv = new Ajv2020({ strict: false, allErrors: true });
    // The contract's dates (docs/contract.md "Dates"): ISO-8601 UTC with milliseconds.
    this.ajv.addFormat('date-time', /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
    this.ajv.addSchema(document, 'openapi.json');
    for (const route of [...routes, ...extraRoutes] as RestRoute[]) this.router.on(route.method, route.path, () => undefined, { route });
  }

  /** Null when the exchange keeps the contract (or is not a REST path); else what is wrong. */
  check(exchange: Exchange): string | null {
    const pathname = exchange.target.split('?')[0].replace(/\.json$/, '');
    const found = this.router.find(exchange.method as HTTPMethod, pathname);
    if (!found) return null;
    const { route } = found.store as { route: RestRoute };
    const key = `${route.method} ${route.path}`;
    if (!this.seen.has(key)) this.seen.set(key, new Set());
    this.seen.get(key)!.add(exchange.status);
    const openApiPath = route.path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, `{${route.wildcard ?? 'path'}}`);
    const operation = this.document.paths[openApiPath]?.[route.method.toLowerCase()];
    const what = `${exchange.method} ${exchange.target} answered ${exchange.status}`;
    if (!operation) return `${what}: the document has no ${route.method} ${openApiPath}`;
    const response = operation.responses[String(exchange.status)];
    if (!response) return `${what}: not a status the document lists for it (${Object.keys(operation.responses).join(', ')})`;
    if (exchange.status === 204) return exchange.body === undefined ? null : `${what} with a body`;
    const pointer = (response as { $ref?: string }).$ref
      ? '#/components/schemas/Error'
      : `#/paths/${escape(openApiPath)}/${route.method.toLowerCase()}/responses/${exchange.status}/content/application~1json/schema`;
    const validate = this.validator(pointer);
    if (validate(exchange.body)) return null;
    const problems = (validate.errors ?? []).map((e) => `${e.instancePath || '(body)'} ${e.message ?? ''} ${JSON.stringify(e.params)}`);
    return `${what}: the body does not match ${pointer}:\n  ${problems.slice(0, 10).join('\n  ')}`;
  }

  private validator(pointer: string): ValidateFunction {
    let validate = this.validators.get(pointer);
    if (!validate) {
      validate = this.ajv.getSchema(`openapi.json${pointer}`);
      if (!validate) throw new Error(`no schema at ${pointer}`);
      this.validators.set(pointer, validate);
    }
    return validate;
  }
}

const escape = (segment: string) => segment.replace(/~/g, '~0').replace(/\//g, '~1');

let shared: ContractChecker | undefined;

/** The checker of the committed document, made on first use (one per test file). */
export function contract(): ContractChecker {
  return (shared ??= new ContractChecker());
}
