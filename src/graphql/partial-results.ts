import { GraphQLError, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';

/** A response with data is a 200 whatever failed beside it (not a 404 a client reads as failed); errors keep `extensions.status`. */
export function partialResults(): Plugin {
  return {
    onResultProcess(payload) {
      const { result } = payload;
      if (Array.isArray(result) || !isPartial(result)) return;
      payload.setResult(partialResult(result));
    },
  };
}

/** The result as partialResults makes it: a result with data loses its errors' HTTP statuses. */
export function partialResult(result: ExecutionResult): ExecutionResult {
  return isPartial(result) ? { ...result, errors: result.errors!.map(withoutHttpStatus) } : result;
}

function isPartial(result: unknown): result is ExecutionResult {
  const r = result as ExecutionResult | null;
  return typeof r === 'object' && r !== null && !(Symbol.asyncIterator in r) && r.data != null && Boolean(r.errors?.length);
}

function withoutHttpStatus(error: GraphQLError): GraphQLError {
  const http = error.extensions?.http;
  if (!http?.status) return error;
  const { status: _status, ...rest } = http;
  return new GraphQLError(error.message, {
    nodes: error.nodes,
    source: error.source,
    positions: error.positions,
    path: error.path,
    originalError: error.originalError,
    extensions: { ...error.extensions, http: rest },
  });
}
