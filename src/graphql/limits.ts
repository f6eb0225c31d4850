import { maxAliasesRule } from '@escape.tech/graphql-armor-max-aliases';
import {
  GraphQLError,
  Kind,
  type ASTNode,
  type ASTVisitor,
  type ValueNode,
  type SelectionSetNode,
  type ValidationContext,
  type ValidationRule,
} from 'graphql';
import type { QueryLimits } from '../config';
import { checkText, snake } from '../parts/text-limits';
import { fragmentsOf } from './selection';

export function tooComplex(what: string, value: number, limit: number, nodes?: readonly ASTNode[]): GraphQLError {
  return new GraphQLError(`query ${what} ${value} exceeds the limit of ${limit}`, {
    nodes,
    extensions: { code: 'QUERY_TOO_COMPLEX', status: 400, fields: [], http: { status: 400 } },
  });
}

/** graphql-js gave up validating (its budget for comparing fields ran out): the same 400. */
export function validationAborted(): GraphQLError {
  return new GraphQLError('query is too complex to validate', {
    extensions: { code: 'QUERY_TOO_COMPLEX', status: 400, fields: [], http: { status: 400 } },
  });
}

/** The limits that need no variables, as validation rules so yoga's validation cache keeps their verdict per document. */
export function limitRules(limits: QueryLimits): ValidationRule[] {
  return [
    maxAliasesRule({
      n: limits.maxAliases,
      propagateOnRejection: false,
      onReject: [
        (context, error) => {
          // armor's message is "Syntax Error: Aliases limit of N exceeded, found M."
          const found = Number(/found (\d+)/.exec(error.message)?.[1]);
          context?.reportError(tooComplex('aliases', found, limits.maxAliases));
        },
      ],
    }),
    (context) => spreadLimit(context, limits.maxSpreads),
    (context) => fieldRepeatsLimit(context, limits.maxFieldRepeats),
  ];
}

// graphql-js's OverlappingFieldsCanBeMerged compares every pair of fields sharing a response name: seconds of CPU
// for a field repeated a thousand times. Clients repeat one a few times (Relay and Apollo add `id`, `__typename`).
function fieldRepeatsLimit(context: ValidationContext, maxRepeats: number): { SelectionSet: (node: SelectionSetNode) => void } {
  const fragments = fragmentsOf(context.getDocument());
  const perFragment = new Map<string, Map<string, number>>();
  const collect = (set: SelectionSetNode, counts: Map<string, number>, spread: Set<string>): void => {
    for (const selection of set.selections) {
      if (selection.kind === Kind.FIELD) {
        const name = selection.alias?.value ?? selection.name.value;
        counts.set(name, (counts.get(name) ?? 0) + 1);
      } else if (selection.kind === Kind.INLINE_FRAGMENT) {
        collect(selection.selectionSet, counts, spread);
      } else if (!spread.has(selection.name.value)) {
        spread.add(selection.name.value);
        for (const [name, count] of fragmentCounts(selection.name.value)) counts.set(name, (counts.get(name) ?? 0) + count);
      }
    }
  };
  const fragmentCounts = (name: string): Map<string, number> => {
    let counts = perFragment.get(name);
    if (counts) return counts;
    counts = new Map();
    // Set before the walk: a cycle (GraphQL's own rules report it) ends here.
    perFragment.set(name, counts);
    const fragment = fragments.get(name);
    if (fragment) collect(fragment.selectionSet, counts, new Set([name]));
    return counts;
  };
  return {
    SelectionSet(node) {
      const counts = new Map<string, number>();
      collect(node, counts, new Set());
      for (const [name, count] of counts) {
        if (count > maxRepeats) {
          context.reportError(tooComplex(`repeats of the field "${name}"`, count, maxRepeats, [node]));
          return;
        }
      }
    },
  };
}

/** Fragments that each spread the next twice expand exponentially; counted once per fragment, this stays linear. */
function spreadLimit(
  context: ValidationContext,
  maxSpreads: number,
): { OperationDefinition: (node: { selectionSet: SelectionSetNode }) => void } {
  const fragments = fragmentsOf(context.getDocument());
  const perFragment = new Map<string, number>();
  const count = (set: SelectionSetNode, active: Set<string>): number => {
    let total = 0;
    for (const selection of set.selections) {
      if (selection.kind === Kind.FRAGMENT_SPREAD) {
        total += 1 + fragmentCount(selection.name.value, active);
      } else if (selection.selectionSet) {
        total += count(selection.selectionSet, active);
      }
      if (total > maxSpreads) return total;
    }
    return total;
  };
  const fragmentCount = (name: string, active: Set<string>): number => {
    const known = perFragment.get(name);
    if (known !== undefined) return known;
    const fragment = fragments.get(name);
    // Unknown fragments and cycles are GraphQL's own rules' to report.
    if (!fragment || active.has(name)) return 0;
    active.add(name);
    const result = count(fragment.selectionSet, active);
    active.delete(name);
    perFragment.set(name, result);
    return result;
  };
  return {
    OperationDefinition(node) {
      const spreads = count(node.selectionSet, new Set());
      if (spreads > maxSpreads) context.reportError(tooComplex('fragment spreads', spreads, maxSpreads));
    },
  };
}

/** Without introspection, graphql-js's "Did you mean …?" hints would still reveal the schema one typo at a time. */
export function hideSuggestions(message: string): string {
  return message.replace(/\s*Did you mean [^?]*\?/g, '');
}

/** checkText's limits for string literals written into a document (arguments, input fields). */
export function inputTextsRule(context: ValidationContext): ASTVisitor {
  const check = (node: { value: ValueNode }, name: string) => {
    const walk = (value: ValueNode, field: string): void => {
      if (value.kind === Kind.STRING) {
        try {
          checkText(value.value, field);
        } catch (error) {
          context.reportError(new GraphQLError((error as Error).message, { nodes: value, originalError: error as Error }));
        }
      } else if (value.kind === Kind.LIST) value.values.forEach((v) => walk(v, field));
    };
    walk(node.value, snake(name));
  };
  return {
    Argument: (node) => check(node, node.name.value),
    ObjectField: (node) => check(node, node.name.value),
  };
}
