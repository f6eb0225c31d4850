import { GraphQLError } from 'graphql';
import { DomainError, errorBody, type ErrorBody } from '../errors';
import { hideSuggestions } from '../graphql/limits';
import { databaseUnavailable, RETRY_AFTER_SECONDS } from '../db/unavailable';
import type { Logger } from '../logger';

export const UNEXPECTED = 'Unexpected error.';

/** Yoga's JSON parser puts the SyntaxError, with a body excerpt, under `originalError` whatever NODE_ENV is. */
const INTERNAL_EXTENSIONS = ['originalError', 'stack', 'exception'];

/** Hidden, not removed: yoga still reads `originalError` to answer a non-JSON body with 400. */
function withoutInternals(extensions: Record<string, unknown>): Record<string, unknown> {
  const kept: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(extensions)) {
    if (INTERNAL_EXTENSIONS.includes(key)) Object.defineProperty(kept, key, { value, enumerable: false });
    else kept[key] = value;
  }
  return kept;
}

/** A domain error as its status and body; anything else is logged and masked as a 500. */
export function describeError(error: unknown, log: Logger): { status: number; body: ErrorBody } {
  if (error instanceof DomainError) return { status: error.httpStatus, body: errorBody(error) };
  const unavailable = databaseUnavailable(error);
  if (unavailable) {
    log.warn({ err: error }, 'database unavailable');
    return { status: 503, body: errorBody(unavailable) };
  }
  log.error({ err: error }, 'unexpected error');
  return { status: 500, body: { code: 500, message: UNEXPECTED, fields: '' } };
}

export function maskGraphQLError(log: Logger, options: { suggestions: boolean } = { suggestions: true }) {
  return (error: unknown): Error => {
    let original = error instanceof GraphQLError ? error.originalError : error;
    const unavailable = original instanceof DomainError ? undefined : databaseUnavailable(original);
    if (unavailable) {
      log.warn({ err: original }, 'database unavailable');
      original = unavailable;
    }
    if (original instanceof DomainError) {
      const graphQLError = error instanceof GraphQLError ? error : undefined;
      const masked = new GraphQLError(original.message, {
        nodes: graphQLError?.nodes,
        // Errors of compiled queries have no nodes: their locations come from these.
        source: graphQLError?.source,
        positions: graphQLError?.positions,
        path: graphQLError?.path,
        originalError: original,
        // Yoga answers with `http.status` and strips it from the body; `status` stays for clients.
        extensions: {
          code: original.code,
          status: original.httpStatus,
          fields: original.fields,
          http: {
            status: original.httpStatus,
            ...(original.httpStatus === 503 ? { headers: { 'retry-after': String(RETRY_AFTER_SECONDS) } } : {}),
          },
        },
      });
      return masked;
    }
    // Without graphql-js's "Did you mean …?" hints when the schema is not to be revealed.
    if (error instanceof GraphQLError && (!error.originalError || error.originalError instanceof GraphQLError)) {
      const internal = INTERNAL_EXTENSIONS.some((key) => key in error.extensions);
      if (options.suggestions && !internal) return error;
      return new GraphQLError(options.suggestions ? error.message : hideSuggestions(error.message), {
        nodes: error.nodes,
        source: error.source,
        positions: error.positions,
        path: error.path,
        extensions: withoutInternals(error.extensions),
      });
    }
    log.error({ err: original }, 'unexpected error');
    const graphQLError = error instanceof GraphQLError ? error : undefined;
    return new GraphQLError(UNEXPECTED, {
      nodes: graphQLError?.nodes,
      source: graphQLError?.source,
      positions: graphQLError?.positions,
      path: graphQLError?.path,
      extensions: { code: 'INTERNAL_SERVER_ERROR', status: 500, fields: [], http: { status: 500 } },
    });
  };
}
