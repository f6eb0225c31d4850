import pino from 'pino';
import { traceFields, tracingEnabled } from './observability/tracing';

export type Logger = pino.Logger;

/** Credentials never reach a log line: the request log carries no headers, and these paths are redacted. */
export function createLogger(level: string, name = 'platform', destination?: pino.DestinationStream): Logger {
  return pino(
    {
      name,
      level,
      base: { name },
      serializers: { err: serializeError },
      timestamp: pino.stdTimeFunctions.isoTime,
      // With tracing on, each line carries the trace and span it was written in.
      ...(tracingEnabled() ? { mixin: traceFields } : {}),
      redact: {
        paths: [
          'password',
          '*.password',
          'token',
          '*.token',
          'authorization',
          '*.authorization',
          'auth_blob',
          '*.auth_blob',
          'authBlob',
          '*.authBlob',
          'req.headers.authorization',
          'url',
        ],
        censor: '[redacted]',
      },
    },
    // Written in order before the call returns: with pino's default asynchronous stream, an exit while a
    // long line was still going out cut it and let the lines after it land first. Node writes its own
    // stdout to a pipe synchronously on Linux too.
    destination ?? pino.destination({ dest: 1, sync: true }),
  );
}

/**
 * An error as pino writes it (type, message and stack with causes, code and other plain fields),
 * without the objects libraries hang on errors: pg puts its whole client there, undici its request.
 */
function serializeError(error: unknown): unknown {
  const line = pino.stdSerializers.err(error as Error) as unknown as Record<string, unknown>;
  if (line === error || typeof line !== 'object' || line === null) return line;
  for (const key of Object.keys(line)) {
    if (!isPlainValue(line[key])) delete line[key];
  }
  return line;
}

function isPlainValue(value: unknown, depth = 0): boolean {
  if (typeof value !== 'object' || value === null) return typeof value !== 'function';
  // An error in a field (aggregateErrors, a wrapped one) is already serialized, on pino's own prototype.
  if ('stack' in value && 'message' in value) return true;
  if (depth > 2) return false;
  const prototype = Object.getPrototypeOf(value) as unknown;
  if (!Array.isArray(value) && prototype !== Object.prototype && prototype !== null) return false;
  return Object.values(value).every((inner) => isPlainValue(inner, depth + 1));
}

/**
 * A rejection or exception nothing handled is logged as one line with its stack, where the operator
 * reads the service's logs, then the process stops as Node would (status 1), after `close` or a bound.
 */
export function exitOnFatal(log: Logger, close: () => Promise<void>, boundMs = 10_000): void {
  let exiting = false;
  const fatal = (kind: string) => (error: unknown) => {
    log.fatal({ err: error }, `${kind}: stopping`);
    if (exiting) return;
    exiting = true;
    setTimeout(() => process.exit(1), boundMs).unref();
    void close()
      .catch((failure: unknown) => log.error({ err: failure }, 'error while stopping'))
      .finally(() => process.exit(1));
  };
  process.on('unhandledRejection', fatal('unhandled rejection'));
  process.on('uncaughtException', fatal('uncaught exception'));
}
