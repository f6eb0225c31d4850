import type { Plugin } from 'graphql-yoga';
import {
  getOperationAST,
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
        return compiled.query(rootValue, contextValue, variableValues);
      });
    },
  };
}
