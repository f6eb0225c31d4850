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
import { leafProblems } from './leaf-check';
import { perOperation } from './operation-memo';

/**
 * graphql-jit with leaf serialization off: serializing passed every leaf a freshly made error
 * location and path, used only on an error (a third of a template list's allocations, and 10 % of
 * a one-template read's CPU). Leaves are answered as resolvers return them; `checkLeaves` checks
 * each result against its types (leaf-check.ts), which the test suite turns on, so every query the
 * suite runs stands guard over that. null: a document graphql-jit cannot compile.
 */
export function compileForSpeed(
  schema: GraphQLSchema,
  document: DocumentNode,
  operationName: string | undefined,
  checkLeaves: boolean,
): CompiledQuery | null {
  const compiled = compileQuery(schema, document, operationName, { disableLeafSerialization: true });
  if (!isCompiledQuery(compiled)) return null;
  if (!checkLeaves) return compiled;
  const query = compiled.query.bind(compiled);
  const checked = (result: ExecutionResult): ExecutionResult => {
    const problems = leafProblems(schema, document, operationName, result.data);
    if (problems.length)
      throw new Error(`compiled query ${operationName ?? '(anonymous)'} answers leaves its types do not allow: ${problems.join('; ')}`);
    return result;
  };
  compiled.query = (root, context, variables) => {
    const result = query(root, context, variables);
    return result instanceof Promise ? result.then(checked) : checked(result);
  };
  return compiled;
}

/** Queries run compiled (graphql-jit), kept per document and operation name: @envelop/graphql-jit keys by document only. */
export function useCompiledQueries(options: { checkLeaves: boolean }): Plugin {
  /** A query's operation and its compiled form; null for any other operation or one graphql-jit cannot compile. */
  const entryFor = perOperation((schema, document, operationName) => {
    const operation = getOperationAST(document, operationName);
    if (operation?.operation !== OperationTypeNode.QUERY) return null;
    const compiled = compileForSpeed(schema, document, operationName, options.checkLeaves);
    return compiled && { operation, compiled };
  });

  return {
    onExecute({ args, setExecuteFn, executeFn }) {
      // Envelop types these as `any` to serve every graphql-js version; this service runs 16.
      const entry = entryFor(args);
      if (!entry) return;
      const { operation, compiled } = entry;
      setExecuteFn((executeArgs): ExecutionResult | Promise<ExecutionResult> => {
        const { schema, document, rootValue, contextValue, variableValues } = executeArgs as ExecutionArgs;
        // Coerced by graphql-js first, so bad variables get graphql-js's errors, as REST does.
        if (operation.variableDefinitions?.length) {
          const coerced = getVariableValues(schema, operation.variableDefinitions, variableValues ?? {});
          if (coerced.errors) return executeFn(executeArgs) as ExecutionResult | Promise<ExecutionResult>;
        }
        const result = compiled.query(rootValue, contextValue, variableValues);
        return result instanceof Promise ? result.then((r) => withSourceLocations(r, document)) : withSourceLocations(result, document);
      });
    },
  };
}

/** graphql-jit's errors lack the source and positions yoga's serializer rebuilds `locations` from; made as graphql-js does. */
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
