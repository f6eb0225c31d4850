import type { Plugin } from 'graphql-yoga';
import {
  getOperationAST,
  GraphQLError,
  OperationTypeNode,
  type DocumentNode,
  type ExecutionArgs,
  type ExecutionResult,
  type GraphQLSchema,
} from 'graphql';
import { getVariableValues } from 'graphql/execution/values';
import { compileQuery, isCompiledQuery, type CompiledQuery } from 'graphql-jit';

/**
 * Queries run compiled (graphql-jit), as the REST routes do: graphql-js walks the operation's
 * AST on every request, which was most of GraphQL-over-HTTP's CPU for a list (bench scenario 1).
 *
 * Compiled operations are kept per parsed document and operation name. Yoga's parser cache
 * hands out the same DocumentNode for the same text, so the WeakMap lives as long as that entry
 * of the parser's LRU does, and no text is kept twice. (@envelop/graphql-jit keys its cache by
 * the document only: a document with two operations would run the first one compiled for
 * whichever name was asked for.) Mutations and subscriptions stay on graphql-js.
 */
export function useCompiledQueries(): Plugin {
  const bySchema = new WeakMap<GraphQLSchema, WeakMap<DocumentNode, Map<string, CompiledQuery | null>>>();
  const compiledFor = (args: ExecutionArgs): CompiledQuery | null => {
    let byDocument = bySchema.get(args.schema);
    if (!byDocument) bySchema.set(args.schema, (byDocument = new WeakMap()));
    let byName = byDocument.get(args.document);
    if (!byName) byDocument.set(args.document, (byName = new Map<string, CompiledQuery | null>()));
    const name = args.operationName ?? '';
    let compiled = byName.get(name);
    if (compiled === undefined) {
      const result = compileQuery(args.schema, args.document, args.operationName ?? undefined);
      // A document the compiler cannot take runs through graphql-js.
      compiled = isCompiledQuery(result) ? result : null;
      byName.set(name, compiled);
    }
    return compiled;
  };

  return {
    onExecute({ args: anyArgs, setExecuteFn, executeFn }) {
      // Envelop types execution arguments and results as `any`, to serve every graphql-js
      // version; this service runs graphql-js 16, whose types they are.
      const args = anyArgs as ExecutionArgs;
      if (getOperationAST(args.document, args.operationName)?.operation !== OperationTypeNode.QUERY) return;
      const compiled = compiledFor(args);
      if (!compiled) return;
      setExecuteFn((executeArgs): ExecutionResult | Promise<ExecutionResult> => {
        const { schema, document, operationName, rootValue, contextValue, variableValues } = executeArgs as ExecutionArgs;
        // Coerced by graphql-js first, so bad variables get graphql-js's errors, as REST does.
        const operation = getOperationAST(document, operationName);
        const coerced = getVariableValues(schema, operation?.variableDefinitions ?? [], variableValues ?? {});
        if (coerced.errors) return executeFn(executeArgs) as ExecutionResult | Promise<ExecutionResult>;
        const result = compiled.query(rootValue, contextValue, variableValues);
        return result instanceof Promise ? result.then((r) => withSourceLocations(r, document)) : withSourceLocations(result, document);
      });
    },
  };
}

/**
 * graphql-jit's errors carry `locations` as plain values, without the source and positions a
 * graphql-js error derives them from, so yoga's serializer (which rebuilds every error from
 * `nodes`, `source` and `positions`) dropped them. Each is rebuilt here as graphql-js would have
 * made it: same message, locations, path, original error and extensions.
 */
function withSourceLocations(result: ExecutionResult, document: DocumentNode): ExecutionResult {
  const source = document.loc?.source;
  if (!result.errors?.length || !source) return result;
  const lineStarts = [0];
  for (const match of source.body.matchAll(/\r\n|[\n\r]/g)) lineStarts.push(match.index + match[0].length);
  const errors = result.errors.map((error) => {
    if (!error.locations?.length || error.source) return error;
    const positions = error.locations.map(({ line, column }) => (lineStarts[line - 1] ?? 0) + column - 1);
    return new GraphQLError(error.message, {
      source,
      positions,
      path: error.path,
      originalError: error.originalError,
      extensions: error.extensions,
    });
  });
  return { ...result, errors };
}
