import pino from 'pino';
import { traceFields, tracingEnabled } from './observability/tracing';

export type Logger = pino.Logger;

/**
 * Structured JSON lines on stdout. Credentials never reach a log line: the request logger
 * records method, path, status and duration only, and these paths are redacted wherever an
 * object is logged whole.
 */
export function createLogger(level: string, name = 'platform'): Logger {
  return pino({
    name,
    level,
    base: { name },
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
  });
}
