import { getOperationAST, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import { BoundedLabel, graphqlOperations, subscriptionsOpen } from '../observability/metrics';
import { withSpan } from '../observability/tracing';

/**
 * Operation names are the client's to choose: the first 200 seen are labels, later ones count as
 * `other` (REST's names come from the route table and are always among them).
 */
const operationNames = new BoundedLabel('operation', 200);

export interface OperationLabels {
  operation: string;
  type: string;
  door: 'graphql' | 'rest';
}

/** The labels of an operation named `name` (undefined: anonymous) of `type`. */
export function operationLabels(name: string | undefined, type: string, door: OperationLabels['door']): OperationLabels {
  return { operation: name ? operationNames.value(name) : 'anonymous', type, door };
}

/** A result's outcome: `success`, `partial` (data and errors) or `error` (no data). */
export function resultOutcome(result: ExecutionResult): string {
  if (!result.errors?.length) return 'success';
  return result.data ? 'partial' : 'error';
}

/**
 * Runs an operation inside a span `graphql <type> <name>` and records its duration and outcome;
 * `outcome` reads the result (an execution result, or the REST door's outcome).
 */
export async function observeOperation<T>(labels: OperationLabels, outcome: (result: T) => string, work: () => Promise<T>): Promise<T> {
  const end = graphqlOperations.startTimer(labels);
  const name = `graphql ${labels.type} ${labels.operation}`;
  try {
    const result = await withSpan(name, { 'graphql.operation.name': labels.operation, 'graphql.operation.type': labels.type }, work);
    end({ outcome: outcome(result) });
    return result;
  } catch (error) {
    end({ outcome: 'error' });
    throw error;
  }
}

/**
 * Envelop plugin: every query and mutation that executes over /graphql (yoga, the direct path,
 * graphql-ws: all run envelop's execute) is timed and traced; subscriptions are counted while
 * they run. Listed after the compiled-queries plugin, so it wraps the function that really runs.
 */
export function useOperationMetrics(): Plugin {
  return {
    onExecute({ args, executeFn, setExecuteFn }) {
      // Envelop types execution arguments and results as `any`; these are graphql-js 16's.
      const { document, operationName } = args as ExecutionArgs;
      const operation = getOperationAST(document, operationName);
      const labels = operationLabels(operation?.name?.value, operation?.operation ?? 'query', 'graphql');
      setExecuteFn((executeArgs) =>
        observeOperation(
          labels,
          (result: ExecutionResult) => (isAsyncIterable(result) ? 'success' : resultOutcome(result)),
          () => Promise.resolve(executeFn(executeArgs) as ExecutionResult),
        ),
      );
    },
    onSubscribe() {
      return {
        onSubscribeResult({ result }) {
          if (!isAsyncIterable(result)) return;
          subscriptionsOpen.inc();
          return { onEnd: () => subscriptionsOpen.dec() };
        },
      };
    },
  };
}

function isAsyncIterable(value: unknown): boolean {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}
