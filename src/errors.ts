/** Anything not in the catalogue is masked as "Unexpected error." and logged. */
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

/** Does not match the schema; 422 is for well-formed but invalid. */
export class BadRequestError extends DomainError {
  readonly code = 'BAD_REQUEST';
  readonly httpStatus = 400;
}

export class UnauthenticatedError extends DomainError {
  readonly code = 'UNAUTHENTICATED';
  readonly httpStatus = 401;
}

export class ForbiddenError extends DomainError {
  readonly code = 'FORBIDDEN';
  readonly httpStatus = 403;
}

export class NotFoundError extends DomainError {
  readonly code = 'NOT_FOUND';
  readonly httpStatus = 404;

  static of(kind: string, id: unknown): NotFoundError {
    return new NotFoundError(`${kind} ${String(id)} not found`, ['id']);
  }
}

/** A service it depends on failed its compose `depends_on` condition, so its container was not made. */
export class DependencyFailedError extends DomainError {
  readonly code = 'DEPENDENCY_FAILED';
  readonly httpStatus = 424;
}

export class MethodNotAllowedError extends DomainError {
  readonly code = 'METHOD_NOT_ALLOWED';
  readonly httpStatus = 405;
}

export class ConflictError extends DomainError {
  readonly code = 'CONFLICT';
  readonly httpStatus = 409;
}

export class PayloadTooLargeError extends DomainError {
  readonly code = 'PAYLOAD_TOO_LARGE';
  readonly httpStatus = 413;
}

export class ValidationError extends DomainError {
  readonly code = 'VALIDATION_FAILED';
  readonly httpStatus = 422;
}

export class UpstreamError extends DomainError {
  readonly code = 'UPSTREAM_FAILED';
  readonly httpStatus = 502;
}

/** Nothing answered (refused, no such host, no route): unlike an error answer, it says the peer is out. */
export class UnreachableError extends UpstreamError {}

/** The agent refused the token's credentials or showed another certificate: retrying cannot help. */
export class AgentRejectedTokenError extends UpstreamError {}

export class UpstreamTimeoutError extends DomainError {
  readonly code = 'UPSTREAM_TIMEOUT';
  readonly httpStatus = 504;
}

/** `retryAfterSeconds` goes into Retry-After. */
export class RateLimitedError extends DomainError {
  readonly code = 'RATE_LIMITED';
  readonly httpStatus = 429;
  retryAfterSeconds = 1;
}

/** A call of the original API that needs what this product does not have (its job runner). */
export class NotImplementedError extends DomainError {
  readonly code = 'NOT_IMPLEMENTED';
  readonly httpStatus = 501;
}

/** The service itself cannot serve yet (database unreachable). */
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

/** As the contract has it: `code` is the HTTP status and `fields` comma-separated. */
export interface ErrorBody {
  code: number;
  message: string;
  fields: string;
}

export function errorBody(error: DomainError): ErrorBody {
  return { code: error.httpStatus, message: error.message, fields: error.fields.join(',') };
}
