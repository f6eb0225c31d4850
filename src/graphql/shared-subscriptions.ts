import { createSourceEventStream, execute, print, type DocumentNode, type ExecutionArgs, type ExecutionResult } from 'graphql';
import type { Plugin } from 'graphql-yoga';
import type { Context } from '../context';
import { subscriptionResults } from '../observability/metrics';

/** Per event object (the bus hands every subscriber the same one): the result of each distinct subscription. */
type Results = Map<string, Promise<ExecutionResult> | ExecutionResult>;
const resultsOfEvents = new WeakMap<object, Results>();
const printed = new WeakMap<DocumentNode, string>();

/**
 * Each subscriber ran its own GraphQL execution of every event, the same work for 1,000 console tabs of one
 * document: one execution per event and distinct subscription now serves them all. Distinct: the document,
 * operation, variables and the token's scopes, the one thing of the subscriber that resolvers under a
 * subscription read (field authorization), so a subscriber still gets only what its own token may see.
 */
export function useSharedSubscriptionResults(): Plugin {
  return {
    onSubscribe({ setSubscribeFn }) {
      setSubscribeFn(async (args: ExecutionArgs) => {
        // As graphql-js's own subscribe: the source stream (authorized per subscriber), each event executed.
        const stream = await createSourceEventStream(args);
        if (!isAsyncIterable(stream)) return stream;
        const key = subscriptionKey(args);
        return mapEvents(stream, (event) => resultOf(event, key, () => execute({ ...args, rootValue: event })));
      });
    },
  };
}

function resultOf(event: unknown, key: string, run: () => Promise<ExecutionResult> | ExecutionResult) {
  if (typeof event !== 'object' || event === null) return run();
  let results = resultsOfEvents.get(event);
  if (!results) resultsOfEvents.set(event, (results = new Map() as Results));
  let result = results.get(key);
  if (result) {
    subscriptionResults.inc({ result: 'reused' });
    return result;
  }
  subscriptionResults.inc({ result: 'executed' });
  result = run();
  results.set(key, result);
  return result;
}

function subscriptionKey(args: ExecutionArgs): string {
  let text = printed.get(args.document);
  if (text === undefined) printed.set(args.document, (text = print(args.document)));
  const scopes = [...(args.contextValue as Context).identity.scopes].sort();
  return JSON.stringify([text, args.operationName ?? null, args.variableValues ?? {}, scopes]);
}

function isAsyncIterable<T>(value: unknown): value is AsyncIterable<T> {
  return typeof value === 'object' && value !== null && Symbol.asyncIterator in value;
}

/** The source's events mapped; ending the mapped stream ends the source (its LISTEN, its queue). */
function mapEvents<T, R>(source: AsyncIterable<T>, map: (value: T) => Promise<R> | R): AsyncIterableIterator<R> {
  const iterator = source[Symbol.asyncIterator]();
  const close = async () => {
    await iterator.return?.();
    return { value: undefined, done: true } as const;
  };
  const mapped: AsyncIterableIterator<R> = {
    async next() {
      const step = await iterator.next();
      if (step.done) return { value: undefined, done: true };
      try {
        return { value: await map(step.value), done: false };
      } catch (error) {
        await close();
        throw error;
      }
    },
    return: close,
    async throw(error?: unknown) {
      await close();
      throw error;
    },
    [Symbol.asyncIterator]: () => mapped,
  };
  return mapped;
}
