import { ConnectionException } from '@mikro-orm/core';
import { UnavailableError } from '../errors';

export const RETRY_AFTER_SECONDS = 5;

// Socket failures, PostgreSQL's connection-exception class (08xxx) and its shutdown codes
// (57P01-57P03: admin shutdown, crash shutdown, cannot connect now).
const CODES = new Set(['ECONNREFUSED', 'ECONNRESET', 'ETIMEDOUT', 'EPIPE', 'EHOSTUNREACH', 'ENOTFOUND', '57P01', '57P02', '57P03']);
const MESSAGES = [
  /Timeout acquiring a connection/i,
  /Connection terminated/i,
  /connection.*(closed|ended)/i,
  /the database system is (starting up|shutting down)/i,
];

/** A database that cannot be reached is a 503 with Retry-After, not a masked 500; the pool reconnects once it is back. */
export function databaseUnavailable(error: unknown): UnavailableError | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 6; depth++) {
    const { code, message } = current as { code?: unknown; message?: unknown };
    if (
      current instanceof ConnectionException ||
      (typeof code === 'string' && (CODES.has(code) || code.startsWith('08'))) ||
      (typeof message === 'string' && MESSAGES.some((re) => re.test(message)))
    ) {
      return new UnavailableError('The database is not reachable; try again shortly.');
    }
    // graphql-js wraps a thrown value that is not an Error of its realm as `thrownValue`.
    const next = current as { cause?: unknown; originalError?: unknown; thrownValue?: unknown };
    current = next.cause ?? next.originalError ?? next.thrownValue;
  }
  return undefined;
}
