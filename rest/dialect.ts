import type { FieldFailure, RestRequest } from './executor';
import type { HttpMethod, RestRoute } from './route';

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
