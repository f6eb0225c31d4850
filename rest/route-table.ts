import type { DomainError } from '../src/errors';

export type HttpMethod = 'GET' | 'POST' | 'PUT' | 'PATCH' | 'DELETE';

/** `input` takes the JSON body (snake_case keys) merged with the path parameters; others a path or query one (`app_id` → `$appId`). */
export interface RestRoute {
  method: HttpMethod;
  /** find-my-way syntax: `/apps/:id`. */
  path: string;
  operation: string;
  /** The success status; 204 sends no body. */
  status: 200 | 201 | 204;
  /** Dot path into the result data for the body; default: the operation's one root field. */
  result?: string;
  /** A create's `Location`: `:id` from the body's `id`, other parameters from the request's path. */
  location?: string;
  /** The variable a trailing `*` of the path fills (an image name spans several segments). */
  wildcard?: string;
  /** `form`: HTML form values typed as the original UI means them ("8080" an Int, "1" true, "" nothing); `_deleted` rows dropped. */
  coerce?: 'form';
  /** Root fields that may fail alone (docs/contract.md "Errors"): a 502/504 leaves null for the response transforms. */
  partial?: readonly string[];
  /**
   * A list the spec leaves unpaged, written a page at a time: the operation's one root field is
   * this connection (`edges { node }`, `pageInfo { hasNextPage endCursor }`, after `$after`), and
   * the answer is the JSON array of every node, streamed, so no more than a page is in memory.
   */
  pages?: string;
}

/** Reshapes a request before its operation runs (where a client puts its fields). */
export type RequestTransform = (request: RestRequest) => RestRequest;

/** `request` is the reshaped request; `failures` are the row's `partial` fields that failed (null in the body). */
export type ResponseTransform = (body: unknown, request: RestRequest, failures: readonly FieldFailure[]) => unknown;

/** A body sent as text with its own content type instead of JSON (a YAML download). */
export class RawBody {
  constructor(
    readonly text: string,
    readonly contentType: string,
  ) {}
}

/** An interface-A route plus the transforms a client dialect needs, run in the order listed. */
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

export interface RestRequest {
  params: Record<string, string | undefined>;
  query: Record<string, string | string[] | undefined>;
  body: unknown;
}

export interface FieldFailure {
  field: string;
  error: DomainError;
}
