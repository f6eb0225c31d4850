/**
 * The error catalogue. Every failure a caller can act on is one of these classes, with a stable
 * `code` (GraphQL `extensions.code`) and the HTTP status both interfaces answer with. Anything
 * else is masked as "Unexpected error." and logged (see src/http/errors.ts).
 */
export abstract class DomainError extends Error {
  abstract readonly code: string;
  abstract readonly httpStatus: number;
  /** Offending field names (snake_case, as a client wrote them). */
  readonly fields: string[];

  constructor(message: string, fields: string[] = []) {
    super(message);
    this.name = new.target.name;
    this.fields = fields;
  }
}

/** 400: a body or query that does not match the schema (malformed JSON, wrong type, missing field). */
export class BadRequestError extends DomainError {
  readonly code = 'BAD_REQUEST';
  readonly httpStatus = 400;
}

/** 401: missing or bad credentials. */
export class UnauthenticatedError extends DomainError {
  readonly code = 'UNAUTHENTICATED';
  readonly httpStatus = 401;
}

/** 403: a valid token without the scope the operation needs. */
export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN';
  readonly httpStatus = 403;
}

/** 404: an unknown id or path. */
export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
  readonly httpStatus = 404;

  static of(kind: string, id: unknown): NotFoundError {
    return new NotFoundError(`${kind} ${String(id)} not found`, ['id']);
  }
}

/** 424: a service's container was not made because a service it depends on failed its condition (compose depends_on). */
export class DependencyFailedError extends DomainError {
  readonly code = 'DEPENDENCY_FAILED';
  readonly httpStatus = 424;
}

/** 405: a known path with a method it does not take. */
export class MethodNotAllowedError extends DomainError {
  readonly code = 'METHOD_NOT_ALLOWED';
  readonly httpStatus = 405;
}

/** 409: a duplicate of something that must be unique. */
export class ConflictError extends DomainError {
  readonly code = 'CONFLICT';
  readonly httpStatus = 409;
}

/** 413: a request body over the limit. */
export class PayloadTooLargeError extends DomainError {
  readonly code = 'PAYLOAD_TOO_LARGE';
  readonly httpStatus = 413;
}

/** 422: well-formed but invalid (bad URL, link to a missing service, duplicate host port). */
export class ValidationError extends DomainError {
  readonly code = 'VALIDATION_FAILED';
  readonly httpStatus = 422;
}

/** 502: an upstream (agent, registry, git host, container engine) failed. */
export class UpstreamError extends DomainError {
  readonly code = 'UPSTREAM_FAILED';
  readonly httpStatus = 502;
}

/**
 * 502: an agent answered definitively that the token is wrong: it rejected the credentials, or
 * presented a certificate other than the one pinned in the token. Retrying cannot help.
 */
export class AgentRejectedTokenError extends UpstreamError {}

/** 504: an upstream did not answer in time. */
export class UpstreamTimeoutError extends DomainError {
  readonly code = 'UPSTREAM_TIMEOUT';
  readonly httpStatus = 504;
}

/** 429: a caller over its rate (a deploy hook's calls per window); `retryAfterSeconds` goes into Retry-After. */
export class RateLimitedError extends DomainError {
  readonly code = 'RATE_LIMITED';
  readonly httpStatus = 429;
  retryAfterSeconds = 1;
}

/** 501: a call of the original API that needs what this product does not have (its job runner). */
export class NotImplementedError extends DomainError {
  readonly code = 'NOT_IMPLEMENTED';
  readonly httpStatus = 501;
}

/** 503: the service itself cannot serve yet (database unreachable). */
export class UnavailableError extends DomainError {
  readonly code = 'UNAVAILABLE';
  readonly httpStatus = 503;
}

const CATALOGUE = [
  BadRequestError,
  UnauthenticatedError,
  ForbiddenError,
  NotFoundError,
  MethodNotAllowedError,
  ConflictError,
  PayloadTooLargeError,
  ValidationError,
  RateLimitedError,
  UpstreamError,
  UpstreamTimeoutError,
  NotImplementedError,
  UnavailableError,
];

/** Every stable code with its status (the schema's ErrorCode enum). */
export const ERROR_CODES: readonly { code: string; httpStatus: number }[] = CATALOGUE.map((E) => new E('')).map(({ code, httpStatus }) => ({
  code,
  httpStatus,
}));

const BY_CODE = new Map<string, new (message: string, fields?: string[]) => DomainError>(CATALOGUE.map((E) => [new E('').code, E]));

/** The catalogue entry for a stable code (a typed GraphQL error result read back by REST). */
export function errorFromCode(code: string, message: string, fields: readonly string[] = []): DomainError | undefined {
  const ErrorClass = BY_CODE.get(code);
  return ErrorClass ? new ErrorClass(message, [...fields]) : undefined;
}

/** The body both interfaces send for an error: `{code, message, fields}`. */
export interface ErrorBody {
  code: number;
  message: string;
  fields: string;
}

export function errorBody(error: DomainError): ErrorBody {
  return { code: error.httpStatus, message: error.message, fields: error.fields.join(',') };
}
