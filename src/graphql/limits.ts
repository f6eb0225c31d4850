import {
  GraphQLError,
  getNamedType,
  isListType,
  isNonNullType,
  Kind,
  type ASTVisitor,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLOutputType,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';

export interface QueryLimits {
  /** Deepest field nesting an operation may have. */
  maxDepth: number;
  /** Aliased fields an operation may have. */
  maxAliases: number;
  /** Lexical tokens a document may have (checked while parsing). */
  maxTokens: number;
  /** Estimated cost: each field costs 1, times the sizes of the lists it sits in. */
  maxCost: number;
}

export const DEFAULT_LIMITS: QueryLimits = { maxDepth: 12, maxAliases: 30, maxTokens: 5000, maxCost: 50000 };

/** A list field's assumed size when no `first`/`limit` argument says otherwise. */
const DEFAULT_LIST_SIZE = 10;

/**
 * Validation rules that refuse operations too deep, too aliased or too costly, before any
 * resolver runs. Errors say which limit and by how much, and carry code QUERY_TOO_COMPLEX.
 */
export function limitRules(limits: QueryLimits): ValidationRule[] {
  return [(context) => operationLimits(context, limits)];
}

function operationLimits(context: ValidationContext, limits: QueryLimits): ASTVisitor {
  const fragments = new Map<string, FragmentDefinitionNode>();
  for (const def of context.getDocument().definitions) {
    if (def.kind === Kind.FRAGMENT_DEFINITION) fragments.set(def.name.value, def);
  }
  return {
    OperationDefinition(operation) {
      const root = operation.operation === 'query' ? context.getSchema().getQueryType()
        : operation.operation === 'mutation' ? context.getSchema().getMutationType()
          : context.getSchema().getSubscriptionType();
      const stats = { depth: 0, aliases: 0, cost: 0 };
      measure(operation.selectionSet, root ?? undefined, 1, 1, stats, fragments, new Set());
      const report = (what: string, value: number, limit: number) =>
        context.reportError(new GraphQLError(`query ${what} ${value} exceeds the limit of ${limit}`, {
          nodes: [operation],
          extensions: { code: 'QUERY_TOO_COMPLEX', status: 400, fields: [], http: { status: 400 } },
        }));
      // Introspection's standard query (GraphiQL, codegen) nests ofType ~15 deep: exempt from
      // depth, not from cost. A minimal exemption; the cost model is issue 8's other part.
      const introspection = operation.selectionSet.selections.every((s) => s.kind === Kind.FIELD && s.name.value.startsWith('__'));
      if (stats.depth > limits.maxDepth && !introspection) report('depth', stats.depth, limits.maxDepth);
      if (stats.aliases > limits.maxAliases) report('aliases', stats.aliases, limits.maxAliases);
      if (stats.cost > limits.maxCost) report('cost', stats.cost, limits.maxCost);
    },
  };
}

type Composite = { getFields?: () => Record<string, { type: GraphQLOutputType }> };

function measure(
  set: SelectionSetNode,
  parent: Composite | undefined,
  depth: number,
  multiplier: number,
  stats: { depth: number; aliases: number; cost: number },
  fragments: Map<string, FragmentDefinitionNode>,
  seen: Set<string>,
): void {
  for (const selection of set.selections) {
    if (selection.kind === Kind.FIELD) {
      stats.depth = Math.max(stats.depth, depth);
      if (selection.alias) stats.aliases++;
      stats.cost += multiplier;
      const fieldType = parent?.getFields?.()[selection.name.value]?.type;
      if (selection.selectionSet) {
        const inner = fieldType ? listMultiplier(fieldType, selection, parent) : 1;
        const named = fieldType ? (getNamedType(fieldType) as Composite) : undefined;
        measure(selection.selectionSet, named, depth + 1, multiplier * inner, stats, fragments, seen);
      }
    } else if (selection.kind === Kind.INLINE_FRAGMENT) {
      measure(selection.selectionSet, parent, depth, multiplier, stats, fragments, seen);
    } else {
      const name = selection.name.value;
      const fragment = fragments.get(name);
      // A fragment spread inside itself is reported by GraphQL's own NoFragmentCycles rule.
      if (!fragment || seen.has(name)) continue;
      measure(fragment.selectionSet, parent, depth, multiplier, stats, fragments, new Set([...seen, name]));
    }
  }
}

function listMultiplier(type: GraphQLOutputType, field: FieldNode, parent: Composite | undefined): number {
  // A connection's `edges` and `nodes` are its page, already counted by its `first`/`last`.
  if ((parent as { name?: string } | undefined)?.name?.endsWith('Connection')) return 1;
  const inner = isNonNullType(type) ? type.ofType : type;
  const named = getNamedType(type).name;
  // A Relay connection is a list too: its size is its `first`.
  if (!isListType(inner) && !named.endsWith('Connection')) return 1;
  const arg = field.arguments?.find((a) => ['first', 'last', 'limit'].includes(a.name.value));
  if (arg?.value.kind === Kind.INT) return Math.max(1, Number(arg.value.value));
  return DEFAULT_LIST_SIZE;
}
