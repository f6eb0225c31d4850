import type { DomainError } from '../src/errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/**
 * One interface-A path. Variables come from the path, then the query, then the body: a
 * variable named `input` takes the JSON body (snake_case keys, as clients send them) merged
 * with the path parameters; any other variable takes the path or query parameter of its name
 * (`app_id` → `$appId`).
 */
export interface RestRoute {
  method: HttpMethod;
  /** find-my-way syntax: `/apps/:id`. */
  path: string;
  /** A named operation in rest/operations/*.graphql. */
  operation: string;
  /** The success status; 204 sends no body. */
  status: 200 | 201 | 204;
  /** Dot path into the result data for the body; default: the operation's one root field. */
  result?: string;
  /**
   * A create's `Location`: this path with `:id` from the body's `id` and any other parameter
   * from the request's path (clients that read no body take the new id from it).
   */
  location?: string;
  /** The variable a trailing `*` of the path fills (an image name spans several segments). */
  wildcard?: string;
  /**
   * `form`: values typed in HTML forms, as the original UI sends them: "8080" is an Int,
   * "1"/"0"/"true"/"false" a Boolean, "" nothing, a number where a String is wanted its
   * text; form rows marked `_deleted: "1"` are dropped. Default: JSON types as they are.
   */
  coerce?: 'form';
  /**
   * Root fields that may fail alone (docs/contract.md "Errors": fields backed by the engine, an
   * agent or a registry): when one of them fails upstream (502, 504), the route still answers,
   * with null there, and hands the failure to the dialect's response transforms. Any other error
   * (a 404, a 422) is the route's answer, as without this.
   */
  partial?: readonly string[];
}

/** Reshapes a request before its operation runs (where a client puts its fields). */
export type RequestTransform = (request: RestRequest) => RestRequest;

/**
 * Reshapes a result body into what a client reads; `request` is the shaped request, `failures`
 * the row's `partial` fields that failed (null in the body).
 */
export type ResponseTransform = (body: unknown, request: RestRequest, failures: readonly FieldFailure[]) => unknown;

/** A body sent as text with its own content type instead of JSON (a YAML download). */
export class RawBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}

/**
 * A row of a client dialect's table: an interface-A route (same operations) plus the small
 * declared transforms that dialect needs. The transforms run in the order listed.
 */
export interface DialectRoute extends RestRoute {
  request?: readonly RequestTransform[];
  response?: readonly ResponseTransform[];
}

/** A call the dialect's client makes that this product cannot serve: 501 with the reason. */
export interface UnsupportedRoute {
  method: HttpMethod;
  path: string;
  unsupported: string;
}

export type DialectRow = DialectRoute | UnsupportedRoute;

export const isUnsupported = (row: DialectRow): row is UnsupportedRoute => 'unsupported' in row;

/** What a route reads: the path's parameters, the query and the parsed JSON body. */
export interface RestRequest {
  params: Record<string, string | undefined>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
}

/** A root field of a route's `partial` that failed upstream, and why. */
export interface FieldFailure {
  field: string;
  error: DomainError;
}
