import { ConflictError, DomainError, NotFoundError, UpstreamError, UpstreamTimeoutError } from '../errors';

/** 404 from the engine: no such container, image or network. */
export class EngineNotFoundError extends NotFoundError {}

/** 409 from the engine: a name already in use, or removing something still in use. */
export class EngineConflictError extends ConflictError {}

/**
 * 502: the engine's socket or port does not accept connections. Its own class so that callers
 * can tell "the engine is down" (service states all null) from "the engine said no".
 */
export class EngineUnreachableError extends UpstreamError {}

/** 502: the engine answered with an error status other than 404 and 409. */
export class EngineRequestError extends UpstreamError {
  constructor(
    message: string,
    /** The engine's HTTP status. */
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

/** Turns whatever undici or the socket threw into a domain error naming the engine. */
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

/** Turns an engine error answer (`{"message": ...}`) into a domain error. */
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

/** True when the error says the engine could not be reached at all. */
export function isEngineUnreachable(error: unknown): error is EngineUnreachableError {
  return error instanceof EngineUnreachableError;
}
