import {
  coerceInputValue,
  execute,
  getNamedType,
  GraphQLError,
  isInputObjectType,
  isListType,
  isNonNullType,
  isUnionType,
  Kind,
  OperationTypeNode,
  specifiedRules,
  NoUnusedFragmentsRule,
  typeFromAST,
  validate,
  type DocumentNode,
  type FieldNode,
  type GraphQLInputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
} from 'graphql';
import type { CompiledQuery } from 'graphql-jit';
import { compileForSpeed } from '../src/graphql/compiled';
import type { Context } from '../src/context';
import { BadRequestError, DomainError, errorFromCode } from '../src/errors';
import type { FieldFailure, RestRequest, RestRoute } from './route-table';
import { restOperationsDocument } from '../src/graphql/rest-documents';

export type RestOutcome = { ok: true; status: number; body: unknown; failures: FieldFailure[] } | { ok: false; error: unknown };

interface Prepared {
  route: RestRoute;
  document: DocumentNode;
  operation: OperationDefinitionNode;
  variables: { name: string; type: GraphQLInputType; hasDefault: boolean }[];
  resultPath: string[];
  /** The names of the root field's typed error results (a mutation's), else null. */
  typedErrors: Set<string> | null;
  /**
   * A query compiled once to JavaScript (graphql-jit) on its first request, not at start-up (the
   * 40 routes took 100–170 ms there); mutations run through graphql-js. undefined: not yet tried.
   */
  compiled: CompiledQuery | null | undefined;
  checkLeaves: boolean;
}

/** Parses and validates every operation at start-up; a missing or invalid operation stops the start. */
export function prepareRoutes(
  schema: GraphQLSchema,
  routes: readonly RestRoute[],
  options: { checkLeaves: boolean },
): Map<RestRoute, Prepared> {
  const document = restOperationsDocument();
  const errors = validate(
    schema,
    document,
    specifiedRules.filter((rule) => rule !== NoUnusedFragmentsRule),
  );
  if (errors.length) throw new Error(`rest/operations do not validate:\n${errors.map((e) => e.message).join('\n')}`);

  const operations = new Map<string, OperationDefinitionNode>();
  for (const def of document.definitions) {
    if (def.kind === Kind.OPERATION_DEFINITION && def.name) operations.set(def.name.value, def);
  }
  const prepared = new Map<RestRoute, Prepared>();
  for (const route of routes) {
    const operation = operations.get(route.operation);
    if (!operation) throw new Error(`route ${route.method} ${route.path} names a missing operation ${route.operation}`);
    // Each operation executes alone, with only the fragments it needs.
    const own: DocumentNode = {
      kind: document.kind,
      definitions: document.definitions.filter((d) => d.kind === Kind.FRAGMENT_DEFINITION || d === operation),
    };
    const rootField = operation.selectionSet.selections[0];
    const rootName = rootField.kind === Kind.FIELD ? (rootField.alias ?? rootField.name).value : '';
    prepared.set(route, {
      route,
      document: own,
      operation,
      variables: (operation.variableDefinitions ?? []).map((v) => ({
        name: v.variable.name.value,
        hasDefault: v.defaultValue !== undefined,
        type: typeFromAST(schema, v.type) as GraphQLInputType,
      })),
      // `result: ''` is the whole data (an operation with several root fields).
      resultPath: route.result === undefined ? [rootName] : route.result.split('.').filter(Boolean),
      typedErrors: typedErrorsOf(schema, operation, document, route.operation),
      compiled: operation.operation === OperationTypeNode.QUERY ? undefined : null,
      checkLeaves: options.checkLeaves,
    });
  }
  return prepared;
}

/** `set`: variables the server gives, over what the request says (a paged route's `after`). */
export async function runRoute(
  schema: GraphQLSchema,
  prepared: Prepared,
  request: RestRequest,
  context: Context,
  set: Record<string, unknown> = {},
): Promise<RestOutcome> {
  const variables = { ...buildVariables(prepared, request), ...set };
  const invalid = variableProblem(prepared, variables);
  if (invalid) return { ok: false, error: invalid };
  // graphql-js re-walks the AST on every request, most of a long list's CPU; what graphql-jit cannot take stays on graphql-js.
  if (prepared.compiled === undefined)
    prepared.compiled = compileForSpeed(schema, prepared.document, prepared.route.operation, prepared.checkLeaves);
  const result = prepared.compiled
    ? await prepared.compiled.query(undefined, context, variables)
    : await execute({
        schema,
        document: prepared.document,
        operationName: prepared.route.operation,
        variableValues: variables,
        contextValue: context,
      });
  const failures: FieldFailure[] = [];
  for (const graphqlError of result.errors ?? []) {
    const error = toDomainError(graphqlError);
    const failure = partialFailure(prepared.route, graphqlError, error);
    if (!failure) return { ok: false, error };
    failures.push(failure);
  }
  const typed =
    prepared.typedErrors &&
    typedError((result.data as Record<string, unknown> | null)?.[prepared.resultPath[0] ?? ''], prepared.typedErrors);
  if (typed) return { ok: false, error: typed };
  if (prepared.route.status === 204) return { ok: true, status: 204, body: undefined, failures };
  let body: unknown = result.data;
  for (const key of prepared.resultPath) body = (body as Record<string, unknown> | null)?.[key];
  return { ok: true, status: prepared.route.status, body, failures };
}

/** The error as a failure the route answers beside (its `partial`), or null when it is the answer. */
function partialFailure(route: RestRoute, graphqlError: GraphQLError, error: unknown): FieldFailure | null {
  const field = graphqlError.path?.[0];
  if (typeof field !== 'string' || !route.partial?.includes(field)) return null;
  if (!(error instanceof DomainError) || (error.httpStatus !== 502 && error.httpStatus !== 504)) return null;
  return { field, error };
}

/**
 * Coerces the variables as graphql-js would (coerceInputValue) before either executor runs: its
 * callback gives each problem's path, so the 400 names the field from that path, not from the message.
 */
function variableProblem(prepared: Prepared, variables: Record<string, unknown>): BadRequestError | null {
  for (const { name, type, hasDefault } of prepared.variables) {
    const value = variables[name];
    if (value === undefined || value === null) {
      if (isNonNullType(type) && !(value === undefined && hasDefault))
        return new BadRequestError(`${snake(name)} ${value === null ? 'must not be null' : 'is required'}`, [snake(name)]);
      continue;
    }
    let problem: BadRequestError | null = null;
    coerceInputValue(value, type, (path, invalid, error) => {
      const fields = fieldsAt(type, path, invalid, name);
      problem ??= new BadRequestError(restMessage(error.message, fields), fields);
    });
    if (problem) return problem;
  }
  return null;
}

/** graphql-js's message in the client's terms: snake_case names, a missing field said as top-level ones are. */
function restMessage(message: string, fields: string[]): string {
  if (/ was not provided\.$/.test(message) && fields.length === 1) return `${fields[0]} is required`;
  return message.replace(/Field "(\w+)"/g, (_match, field: string) => `Field "${snake(field)}"`);
}

/**
 * The client's field a coercion problem is about: the last field on its path, or the required field
 * missing from the object it ends at (graphql-js reports that at the object).
 */
function fieldsAt(type: GraphQLInputType, path: readonly (string | number)[], invalid: unknown, variable: string): string[] {
  let at: GraphQLInputType = type;
  for (const step of path) {
    const inner: GraphQLInputType = isNonNullType(at) ? at.ofType : at;
    if (typeof step === 'number' && isListType(inner)) at = inner.ofType;
    else if (typeof step === 'string' && isInputObjectType(inner)) at = inner.getFields()[step]?.type ?? at;
  }
  const inner = isNonNullType(at) ? at.ofType : at;
  if (isInputObjectType(inner) && invalid !== null && typeof invalid === 'object' && !Array.isArray(invalid)) {
    const missing = Object.values(inner.getFields()).find(
      (field) => isNonNullType(field.type) && field.defaultValue === undefined && (invalid as Record<string, unknown>)[field.name] == null,
    );
    if (missing) return [snake(missing.name)];
  }
  const last =
    [...path].reverse().find((step): step is string => typeof step === 'string') ?? (variable === 'input' ? undefined : variable);
  return last ? [snake(last)] : [];
}

function buildVariables(prepared: Prepared, request: RestRequest): Record<string, unknown> {
  const { wildcard, coerce } = prepared.route;
  const form = coerce === 'form';
  const params = Object.fromEntries(Object.entries(request.params).map(([k, v]) => [k === '*' && wildcard ? wildcard : camel(k), v]));
  const query = Object.fromEntries(Object.entries(request.query).map(([k, v]) => [camel(k), Array.isArray(v) ? v[v.length - 1] : v]));
  const variables: Record<string, unknown> = {};
  for (const { name, type } of prepared.variables) {
    if (name === 'input') {
      const body = request.body ?? {};
      if (typeof body !== 'object' || Array.isArray(body)) throw new BadRequestError('the body must be a JSON object');
      variables.input = fitInput({ ...query, ...body, ...params }, type, form);
    } else {
      const raw = params[name] ?? query[name];
      if (raw !== undefined && !(form && raw === '')) variables[name] = scalarFromString(raw, type, name, form);
    }
  }
  return variables;
}

/**
 * snake_case keys are read as camelCase fields and unknown keys dropped (clients PUT back whole
 * representations, read-only fields included); path/query strings become Ints where wanted.
 */
function fitInput(value: unknown, type: GraphQLInputType, form = false): unknown {
  const inner = isNonNullType(type) ? type.ofType : type;
  if (value === null || value === undefined) return value;
  if (isListType(inner)) {
    if (!Array.isArray(value)) return value;
    const rows = form ? value.filter((row) => !deletedRow(row)) : value;
    return rows.map((v) => fitInput(v, inner.ofType, form));
  }
  if (isInputObjectType(inner)) {
    if (typeof value !== 'object' || Array.isArray(value)) return value;
    const source = value as Record<string, unknown>;
    const out: Record<string, unknown> = {};
    for (const field of Object.values(inner.getFields())) {
      const snake = field.name.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
      const raw = snake in source ? source[snake] : source[field.name];
      if (raw !== undefined) out[field.name] = fitInput(raw, field.type, form);
    }
    return out;
  }
  if (typeof value === 'string' && getNamedType(inner).name === 'Int' && /^-?\d+$/.test(value)) return Number(value);
  return form ? formValue(value, getNamedType(inner).name) : value;
}

/** A form's value as the type wants it (route `coerce: 'form'`); anything else is left for GraphQL to judge. */
function formValue(value: unknown, typeName: string): unknown {
  if (typeof value === 'string') {
    if (value === '' && ['Int', 'Float', 'Boolean'].includes(typeName)) return null;
    if (typeName === 'Boolean' && ['1', 'true'].includes(value)) return true;
    if (typeName === 'Boolean' && ['0', 'false'].includes(value)) return false;
    if (typeName === 'Float' && /^-?\d+(\.\d+)?$/.test(value)) return Number(value);
  }
  if (typeof value === 'number' && (typeName === 'String' || typeName === 'ID')) return String(value);
  return value;
}

/** A nested form row the user removed: Rails' `_deleted` (or `_destroy`) flag set. */
function deletedRow(row: unknown): boolean {
  if (!row || typeof row !== 'object') return false;
  const flag = (row as Record<string, unknown>)._deleted ?? (row as Record<string, unknown>)._destroy;
  return flag === true || flag === '1' || flag === 'true';
}

function scalarFromString(raw: string | undefined, type: GraphQLInputType, name: string, form = false): unknown {
  const named = getNamedType(type).name;
  if (form && raw !== undefined && named === 'Boolean' && (raw === '1' || raw === '0')) return raw === '1';
  if (named === 'Boolean' && raw !== undefined) {
    if (raw !== 'true' && raw !== 'false') throw new BadRequestError(`${snake(name)} must be true or false`, [snake(name)]);
    return raw === 'true';
  }
  if (named !== 'Int' || raw === undefined) return raw;
  if (!/^-?\d+$/.test(raw)) throw new BadRequestError(`${snake(name)} must be an integer`, [snake(name)]);
  return Number(raw);
}

/** A resolver's own error; variables were checked before (variableProblem). */
function toDomainError(error: GraphQLError): unknown {
  return error.originalError ?? error;
}

/**
 * A mutation's fixable failures are typed results (`... on Error`) that REST answers with the code's
 * status and `{code, message, fields}`; an operation that can get one must select them or the start stops.
 */
function typedErrorsOf(
  schema: GraphQLSchema,
  operation: OperationDefinitionNode,
  document: DocumentNode,
  name: string,
): Set<string> | null {
  const root = operation.selectionSet.selections[0] as FieldNode;
  const rootType = operation.operation === OperationTypeNode.MUTATION ? schema.getMutationType() : schema.getQueryType();
  const type = getNamedType(rootType?.getFields()[root.name.value]?.type);
  if (!isUnionType(type)) return null;
  const errors = type.getTypes().filter((t) => t.getInterfaces().some((i) => i.name === 'Error'));
  if (errors.length === 0) return null;
  const selectsErrors = root.selectionSet?.selections.some(
    (s) =>
      (s.kind === Kind.INLINE_FRAGMENT && s.typeCondition?.name.value === 'Error') ||
      (s.kind === Kind.FRAGMENT_SPREAD &&
        document.definitions.some(
          (d) => d.kind === Kind.FRAGMENT_DEFINITION && d.name.value === s.name.value && d.typeCondition.name.value === 'Error',
        )),
  );
  if (!selectsErrors) throw new Error(`operation ${name} must select its typed errors (...ErrorBody)`);
  return new Set(errors.map((t) => t.name));
}

function typedError(value: unknown, errorTypes: Set<string>): DomainError | undefined {
  const result = value as { __typename?: string; code?: string; message?: string; fields?: string[] } | null | undefined;
  if (!result?.__typename || !errorTypes.has(result.__typename)) return undefined;
  return errorFromCode(result.code ?? '', result.message ?? '', result.fields ?? []);
}

const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());
const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
