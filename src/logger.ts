import pino from 'pino';
import { traceFields, tracingEnabled } from './observability/tracing';

export type Logger = pino.Logger;

/** Credentials never reach a log line: the request log carries no headers, and these paths are redacted. */
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
