import {
  getOperationAST,
  isAbstractType,
  isCompositeType,
  isEnumType,
  isLeafType,
  isListType,
  isNonNullType,
  isObjectType,
  isSpecifiedScalarType,
  isUnionType,
  Kind,
  type DocumentNode,
  type GraphQLCompositeType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type SelectionSetNode,
} from 'graphql';
import { fragmentsOf } from './selection';

/**
 * Compiled queries run with graphql-jit's leaf serialization off, which trusts every resolver to
 * return a leaf as it is answered: a String or ID as a string, an Int as a 32-bit integer, a Float
 * as a finite number, a Boolean as a boolean, an enum value as its name. These are the places in a
 * result where one does not (say, a bigint column read as "5" for an Int). Custom scalars are
 * serialized either way and not looked at.
 */
export function leafProblems(schema: GraphQLSchema, document: DocumentNode, operationName: string | undefined, data: unknown): string[] {
  const operation = getOperationAST(document, operationName);
  const fragments = fragmentsOf(document);
  const root = operation && schema.getRootType(operation.operation);
  if (!operation || !root || data === null || typeof data !== 'object') return [];
  const problems: string[] = [];

  const checkValue = (type: GraphQLOutputType, value: unknown, path: string, selections: SelectionSetNode | undefined): void => {
    if (value === null || value === undefined) return;
    if (isNonNullType(type)) return checkValue(type.ofType, value, path, selections);
    if (isListType(type)) {
      if (Array.isArray(value)) value.forEach((item, i) => checkValue(type.ofType, item, `${path}.${i}`, selections));
      return;
    }
    if (isLeafType(type)) {
      if (!isEnumType(type) && !isSpecifiedScalarType(type)) return;
      const answered = isEnumType(type)
        ? typeof value === 'string' && type.getValue(value) !== undefined
        : leafAsAnswered(type.name, value);
      if (!answered) problems.push(`${path}: ${JSON.stringify(value)} (${typeof value}) for ${type.name}`);
      return;
    }
    if (selections && typeof value === 'object') checkObject(type, value as Record<string, unknown>, path, selections);
  };

  const checkObject = (type: GraphQLCompositeType, value: Record<string, unknown>, path: string, selections: SelectionSetNode): void => {
    // An abstract type's object is known as its concrete type only when the result names it.
    const named = typeof value.__typename === 'string' ? schema.getType(value.__typename) : undefined;
    const runtime = isAbstractType(type) && named && isObjectType(named) ? named : type;
    for (const selection of selections.selections) {
      if (selection.kind === Kind.FIELD) {
        // Only __typename is selected on a union itself.
        if (isUnionType(runtime)) continue;
        const field = runtime.getFields()[selection.name.value];
        const key = selection.alias?.value ?? selection.name.value;
        if (field && key in value) checkValue(field.type, value[key], `${path}.${key}`, selection.selectionSet);
        continue;
      }
      const fragment = selection.kind === Kind.INLINE_FRAGMENT ? selection : fragments.get(selection.name.value);
      if (!fragment) continue;
      const condition = fragment.typeCondition ? schema.getType(fragment.typeCondition.name.value) : runtime;
      if (!condition || !isCompositeType(condition)) continue;
      // A fragment on another concrete type, or on one the result does not say this object is, is not read.
      const applies =
        condition === runtime || (isAbstractType(condition) && (isAbstractType(runtime) || schema.isSubType(condition, runtime)));
      if (applies) checkObject(isObjectType(runtime) ? runtime : condition, value, path, fragment.selectionSet);
    }
  };

  checkObject(root, data as Record<string, unknown>, operation.name?.value ?? 'data', operation.selectionSet);
  return problems;
}

/** A specified scalar's value as graphql-js would answer it. */
function leafAsAnswered(type: string, value: unknown): boolean {
  switch (type) {
    case 'String':
    case 'ID':
      return typeof value === 'string';
    case 'Int':
      return Number.isInteger(value) && (value as number) <= 2147483647 && (value as number) >= -2147483648;
    case 'Float':
      return typeof value === 'number' && Number.isFinite(value);
    case 'Boolean':
      return typeof value === 'boolean';
    default:
      return true;
  }
}
