import type { Plugin } from 'graphql-yoga';
import { createComplexityRule, type FieldComplexityValue } from '@pothos/plugin-complexity';
import {
  getNamedType,
  getOperationAST,
  isListType,
  isNonNullType,
  isObjectType,
  Kind,
  validate,
  type DocumentNode,
  type ExecutionArgs,
  type FragmentDefinitionNode,
  type GraphQLError,
  type GraphQLField,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import type { Context, Services } from '../context';
import type { QueryLimits } from '../config';
import { tooComplex } from './limits';
import { perOperation } from './operation-memo';
import { fragmentsOf } from './selection';

/**
 * A field costs 1 and multiplies what it selects by its items: a top-level list of every row by its counted size,
 * a connection by its page (`edges`/`nodes` by 1), a journal or search by its `limit`, any other list by 10.
 */
export const DEFAULT_LIST_SIZE = 10;
const PAGE = { defaultSize: 20, maxSize: 100 };

/** Costs a top-level list of every row at its real size, counted before the operation runs. */
export function countedList(count: (services: Services) => Promise<number>): { extensions: { countRows: typeof count } } {
  return { extensions: { countRows: count } };
}

export function byLimit(defaultLimit: number, maxLimit = Infinity) {
  return (args: Args): FieldComplexityValue => ({
    field: 1,
    multiplier: Math.max(Math.min(Number(args.limit ?? defaultLimit), maxLimit), 0),
  });
}

type Args = Record<string, unknown>;

const coordinates = new WeakMap<GraphQLField<unknown, unknown>, string>();
const indexed = new WeakSet<GraphQLSchema>();
/** The counted sizes of one request's top-level lists, by its context. */
const sizes = new WeakMap<object, Map<string, number>>();

function indexCoordinates(schema: GraphQLSchema): void {
  if (indexed.has(schema)) return;
  for (const type of Object.values(schema.getTypeMap())) {
    if (!isObjectType(type)) continue;
    for (const field of Object.values(type.getFields()))
      coordinates.set(field as GraphQLField<unknown, unknown>, `${type.name}.${field.name}`);
  }
  indexed.add(schema);
}

/** The builder's `complexity.fieldComplexity`. */
export function fieldCost<C extends object>(args: Args, ctx: C, field: GraphQLField<unknown, C, Args>): FieldComplexityValue {
  const coordinate = coordinates.get(field as unknown as GraphQLField<unknown, unknown>) ?? '';
  const named = getNamedType(field.type).name;
  if (named.endsWith('Connection')) {
    const asked = Number(args.first ?? args.last ?? PAGE.defaultSize);
    return { field: 1, multiplier: Math.min(Math.max(asked, 0), PAGE.maxSize) };
  }
  const unwrapped = isNonNullType(field.type) ? field.type.ofType : field.type;
  if (!isListType(unwrapped)) return 1;
  if (/Connection\.(edges|nodes)$/.test(coordinate)) return { field: 1, multiplier: 1 };
  const counted = sizes.get(ctx)?.get(coordinate);
  return { field: 1, multiplier: counted ?? DEFAULT_LIST_SIZE };
}

/** What a document's operation needs costed, found once per document and operation name. */
interface CostPlan {
  operation: OperationDefinitionNode;
  fragments: Map<string, FragmentDefinitionNode>;
  rootFields: Set<string>;
  counters: [coordinate: string, count: (services: Services) => Promise<number>][];
  /** Verdicts by variables and counted sizes. */
  verdicts: Map<string, GraphQLError[]>;
}

/** undefined: no single operation to run (execution reports it). */
function costPlan(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined): CostPlan | undefined {
  const operation = getOperationAST(document, operationName);
  if (!operation) return undefined;
  indexCoordinates(schema);
  const fragments = fragmentsOf(document);
  const rootFields = rootFieldNames(operation.selectionSet, fragments);
  const rootType = schema.getRootType(operation.operation);
  const counters: CostPlan['counters'] = [];
  for (const name of rootFields) {
    const count = rootType?.getFields()[name]?.extensions.countRows;
    if (typeof count === 'function') counters.push([`${rootType?.name}.${name}`, count as (services: Services) => Promise<number>]);
  }
  return { operation, fragments, rootFields, counters, verdicts: new Map() };
}

/** Depth and cost, checked before an operation runs on every transport (HTTP, SSE and WebSocket all go through envelop). */
export function useCostLimit(limits: QueryLimits): Plugin {
  const planFor = perOperation(costPlan);
  const check = async (args: ExecutionArgs): Promise<GraphQLError[]> => {
    const plan = planFor(args);
    if (!plan) return [];
    const { operation, fragments, rootFields, counters, verdicts } = plan;
    const context = args.contextValue as Context;
    const counts = counters.length > 0 ? await Promise.all(counters.map(([, count]) => count(context.services))) : [];
    // The verdict depends on the document, its variables and the counted lists' sizes alone.
    const variables = JSON.stringify(args.variableValues ?? {});
    const key = counts.length > 0 ? `${variables}\n${counts.join(',')}` : variables;
    const known = verdicts.get(key);
    if (known) return known;
    // Read by fieldCost while the document is costed below.
    if (counters.length > 0) sizes.set(context, new Map(counters.map(([coordinate], i) => [coordinate, counts[i]])));
    const introspection = rootFields.has('__schema') || rootFields.has('__type') ? introspectionCost(operation.selectionSet, fragments) : 0;
    const errors: GraphQLError[] = [];
    validate(args.schema, args.document, [
      createComplexityRule({
        context,
        variableValues: args.variableValues ?? {},
        operationName: operation.name?.value,
        // Invalid variables are left to execution, which reports them as it always does.
        validate: ({ depth, complexity }) => {
          if (depth > limits.maxDepth) errors.push(tooComplex('depth', depth, limits.maxDepth, [operation]));
          const cost = complexity + introspection;
          if (cost > limits.maxCost) errors.push(tooComplex('cost', cost, limits.maxCost, [operation]));
        },
      }),
    ]);
    // Bounded: a client sending ever new variables with one document (or a list that keeps growing) does not grow it forever.
    if (verdicts.size >= 100) verdicts.clear();
    verdicts.set(key, errors);
    return errors;
  };
  return {
    onExecute: ({ args, setResultAndStopExecution }) =>
      check(args).then((errors) => {
        if (errors.length) setResultAndStopExecution({ errors });
      }),
    onSubscribe: ({ args, setResultAndStopExecution }) =>
      check(args).then((errors) => {
        if (errors.length) setResultAndStopExecution({ errors });
      }),
  };
}

function rootFieldNames(
  set: SelectionSetNode,
  fragments: Map<string, FragmentDefinitionNode>,
  seen = new Set<string>(),
  names = new Set<string>(),
): Set<string> {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) names.add(selection.name.value);
    else if (selection.kind === Kind.INLINE_FRAGMENT) rootFieldNames(selection.selectionSet, fragments, seen, names);
    else if (!seen.has(selection.name.value)) {
      seen.add(selection.name.value);
      const fragment = fragments.get(selection.name.value);
      if (fragment) rootFieldNames(fragment.selectionSet, fragments, seen, names);
    }
  }
  return names;
}

const INTROSPECTION_LISTS = new Set([
  'types',
  'fields',
  'args',
  'inputFields',
  'interfaces',
  'enumValues',
  'possibleTypes',
  'directives',
  'locations',
]);

// One `__schema`/`__type` answers at most the whole schema: GraphiQL's introspection (~52,000 by the list
// model, over the default limit) passes, three copies of it do not.
const INTROSPECTION_SELECTION_MAX = 20_000;

/** The Pothos walk costs a meta field 1 without entering it; this walk enters, each selection set once. */
function introspectionCost(set: SelectionSetNode, fragments: Map<string, FragmentDefinitionNode>): number {
  const memo = new Map<SelectionSetNode, number>();
  const cost = (selections: SelectionSetNode, active: Set<SelectionSetNode>): number => {
    const known = memo.get(selections);
    if (known !== undefined) return known;
    if (active.has(selections)) return 0;
    active.add(selections);
    let total = 0;
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) {
        total += 1;
        if (selection.selectionSet)
          total += (INTROSPECTION_LISTS.has(selection.name.value) ? DEFAULT_LIST_SIZE : 1) * cost(selection.selectionSet, active);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        total += cost(selection.selectionSet, active);
      } else {
        const fragment = fragments.get(selection.name.value);
        if (fragment) total += cost(fragment.selectionSet, active);
      }
    }
    active.delete(selections);
    memo.set(selections, total);
    return total;
  };
  let total = 0;
  const visit = (selections: SelectionSetNode, seen: Set<string>) => {
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) {
        if ((selection.name.value === '__schema' || selection.name.value === '__type') && selection.selectionSet) {
          total += Math.min(cost(selection.selectionSet, new Set()), INTROSPECTION_SELECTION_MAX);
        }
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        visit(selection.selectionSet, seen);
      } else if (!seen.has(selection.name.value)) {
        seen.add(selection.name.value);
        const fragment = fragments.get(selection.name.value);
        if (fragment) visit(fragment.selectionSet, seen);
      }
    }
  };
  visit(set, new Set());
  return total;
}
