import { ConflictError, DomainError, NotFoundError, UpstreamError, UpstreamTimeoutError } from '../errors';

export class EngineNotFoundError extends NotFoundError {}

export class EngineConflictError extends ConflictError {}

/** Its own class so callers can tell "the engine is down" from "the engine said no". */
export class EngineUnreachableError extends UpstreamError {}

export class EngineRequestError extends UpstreamError {
  constructor(
    message: string,
    readonly statusCode: number,
    /** The engine's own words, without ours around them. */
    readonly engineMessage: string,
  ) {
    super(message);
  }
}

// Errors that mean "nothing listens there"; anything else on the way is a failed request.
const UNREACHABLE_CODES = new Set([
  'ECONNREFUSED',
  'ENOENT',
  'EACCES',
  'ENOTSOCK',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ENOTFOUND',
  'EAI_AGAIN',
]);
const TIMEOUT_CODES = new Set(['UND_ERR_CONNECT_TIMEOUT', 'UND_ERR_HEADERS_TIMEOUT', 'UND_ERR_BODY_TIMEOUT', 'ETIMEDOUT']);

export function transportError(error: unknown, host: string, what: string, timeoutMs: number): DomainError {
  if (error instanceof DomainError) return error;
  // Not `instanceof Error`: socket errors come from another realm under jest's vm.
  const { code = '', message, name } = (error ?? {}) as { code?: string; message?: string; name?: string };
  const reason = typeof message === 'string' ? message : String(error);
  if (TIMEOUT_CODES.has(code) || name === 'TimeoutError') {
    return new UpstreamTimeoutError(`container engine at ${host} did not answer ${what} within ${timeoutMs} ms`);
  }
  if (UNREACHABLE_CODES.has(code)) {
    return new EngineUnreachableError(`container engine at ${host} is unreachable: ${reason}`);
  }
  return new UpstreamError(`container engine at ${host} failed on ${what}: ${reason}`);
}

export function statusError(statusCode: number, body: string, what: string): DomainError {
  let message = body.trim();
  try {
    const parsed = JSON.parse(body) as { message?: unknown };
    if (typeof parsed.message === 'string') message = parsed.message;
  } catch {
    // Not JSON: keep the text as it came.
  }
  if (statusCode === 404) return new EngineNotFoundError(message || `${what}: not found`);
  if (statusCode === 409) return new EngineConflictError(message || `${what}: conflict`);
  return new EngineRequestError(`container engine failed on ${what} (${statusCode}): ${message}`, statusCode, message);
}

export function isEngineUnreachable(error: unknown): error is EngineUnreachableError {
  return error instanceof EngineUnreachableError;
}
