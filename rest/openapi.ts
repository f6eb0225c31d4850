import {
  getNamedType,
  isAbstractType,
  isEnumType,
  isInputObjectType,
  isListType,
  isNonNullType,
  isScalarType,
  Kind,
  OperationTypeNode,
  typeFromAST,
  type DocumentNode,
  type FieldNode,
  type FragmentDefinitionNode,
  type GraphQLInputType,
  type GraphQLNamedType,
  type GraphQLObjectType,
  type GraphQLOutputType,
  type GraphQLSchema,
  type OperationDefinitionNode,
  type SelectionSetNode,
} from 'graphql';
import { DEFAULT_MAX_TEXT_CHARS, MAX_TEXT_CHARS } from '../src/parts/text-limits';
import { restOperationsDocument } from '../src/graphql/rest-documents';
import type { RestRoute } from './route-table';

/** A JSON Schema (2020-12, OpenAPI 3.1's dialect), as plain data. */
export type JsonSchema = Record<string, unknown>;

export interface OpenApiOptions {
  version: string;
}

/** The statuses every path may answer with an error body (docs/contract.md "Errors"). */
const COMMON_ERRORS: Record<string, string> = {
  '400': 'Malformed: a body or parameter that does not match the schema.',
  '401': 'Missing or bad credentials.',
  '403': 'The token lacks the scope this path needs.',
  '404': 'No such object (or path).',
  '413': 'The body is larger than allowed.',
  '422': 'Well-formed but invalid (a text over its length, a rule of the domain); `fields` names the offending fields.',
  '500': 'Unexpected error (logged; no details are given).',
  '502': 'An upstream (agent, registry, git host, container engine) failed.',
  '503': 'The database is not reachable; try again (Retry-After).',
  '504': 'An upstream timed out.',
};
const WRITE_ERRORS: Record<string, string> = {
  '409': 'Conflict: a unique name is taken.',
};

const SCALARS: Record<string, JsonSchema> = {
  String: { type: 'string' },
  ID: { type: 'string' },
  Int: { type: 'integer' },
  Float: { type: 'number' },
  Boolean: { type: 'boolean' },
  DateTime: { type: 'string', format: 'date-time' },
  PortValue: { type: ['integer', 'string'] },
  JSON: {},
};

const snake = (s: string) => s.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`);
const camel = (s: string) => s.replace(/_([a-z])/g, (_m, c: string) => c.toUpperCase());

/**
 * The OpenAPI 3.1 document of a REST route table, derived from what serves it: each row's path,
 * method and status, and the GraphQL operation behind it. Response bodies are the operation's
 * selection (aliases are the JSON member names) typed by the schema; request bodies and
 * parameters are its variables as rest/executor.ts reads them (path, then query, then the body
 * for `input`, in snake_case). Nothing here is written by hand twice: a change to a route, an
 * operation or a schema type changes the document (`npm run openapi:print`).
 */
export function openApiDocument(schema: GraphQLSchema, routes: readonly RestRoute[], options: OpenApiOptions): JsonSchema {
  const document = restOperationsDocument();
  const generator = new Generator(schema, document);
  const paths: Record<string, Record<string, unknown>> = {};
  const uses = new Map<string, number>();
  for (const route of routes) uses.set(route.operation, (uses.get(route.operation) ?? 0) + 1);
  for (const route of routes) {
    const openApiPath = route.path.replace(/:(\w+)/g, '{$1}').replace(/\*$/, `{${route.wildcard ?? 'path'}}`);
    // OpenAPI wants operationIds unique: an operation behind several paths is named by its owner too.
    const operationId = uses.get(route.operation)! > 1 ? `${route.operation}_${route.path.split('/')[1]}` : route.operation;
    (paths[openApiPath] ??= {})[route.method.toLowerCase()] = { operationId, ...generator.operation(route) };
  }
  return {
    openapi: '3.1.0',
    info: {
      title: 'platform REST API (interface A)',
      version: options.version,
      license: { name: 'Apache-2.0', identifier: 'Apache-2.0' },
      description:
        'Every REST path of the service, generated from its route table (rest/routes.ts) and the GraphQL operation behind each path (rest/operations). ' +
        'Errors are `{code, message, fields}` with the statuses of docs/contract.md. GraphQL is served at /graphql.',
    },
    jsonSchemaDialect: 'https://spec.openapis.org/oas/3.1/dialect/base',
    servers: [{ url: '/' }],
    security: [{ bearerAuth: [] }, { consoleSession: [] }],
    tags: [...new Set(routes.map(tagOf))].sort().map((name) => ({ name, description: `Paths under /${name}.` })),
    paths,
    components: {
      securitySchemes: {
        bearerAuth: { type: 'http', scheme: 'bearer', description: 'An API token (scopes: read, write, deploy, admin).' },
        consoleSession: {
          type: 'apiKey',
          in: 'cookie',
          name: 'platform_session',
          description: "The web console's session cookie; with it, every method but GET, HEAD and OPTIONS needs `x-csrf-token`.",
        },
      },
      responses: {
        Error: {
          description: 'An error: the status says which (docs/contract.md "Errors").',
          content: { 'application/json': { schema: { $ref: '#/components/schemas/Error' } } },
        },
      },
      schemas: {
        Error: {
          type: 'object',
          properties: {
            code: { type: 'integer', description: 'The HTTP status.' },
            message: { type: 'string' },
            fields: { type: 'string', description: 'Comma-separated offending field names, or empty.' },
          },
          required: ['code', 'message', 'fields'],
          additionalProperties: false,
        },
        ...generator.components(),
      },
    },
  };
}

/** The document as committed (rest/openapi.json): stable key order, two-space indentation. */
export function printOpenApi(document: JsonSchema): string {
  return `${JSON.stringify(document, null, 2)}\n`;
}

function tagOf(route: RestRoute): string {
  return route.path.split('/')[1] ?? 'root';
}

class Generator {
  private readonly operations = new Map<string, OperationDefinitionNode>();
  private readonly fragments = new Map<string, FragmentDefinitionNode>();
  private readonly componentSchemas = new Map<string, JsonSchema>();

  constructor(
    private readonly schema: GraphQLSchema,
    document: DocumentNode,
  ) {
    for (const def of document.definitions) {
      if (def.kind === Kind.OPERATION_DEFINITION && def.name) this.operations.set(def.name.value, def);
      if (def.kind === Kind.FRAGMENT_DEFINITION) this.fragments.set(def.name.value, def);
    }
  }

  components(): Record<string, JsonSchema> {
    return Object.fromEntries([...this.componentSchemas.entries()].sort(([a], [b]) => a.localeCompare(b)));
  }

  operation(route: RestRoute): JsonSchema {
    const operation = this.operations.get(route.operation);
    if (!operation) throw new Error(`route ${route.method} ${route.path} names a missing operation ${route.operation}`);
    const variables = (operation.variableDefinitions ?? []).map((v) => ({
      name: v.variable.name.value,
      type: typeFromAST(this.schema, v.type) as GraphQLInputType,
      hasDefault: v.defaultValue !== undefined,
    }));
    const input = variables.find((v) => v.name === 'input');
    const inputType = input ? nullable(input.type) : undefined;
    const inputFields = inputType && isInputObjectType(inputType) ? inputType.getFields() : {};
    const pathNames = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]);
    if (route.path.endsWith('*')) pathNames.push(route.wildcard ?? 'path');

    const parameters: JsonSchema[] = [];
    for (const name of pathNames) {
      const variable = variables.find((v) => v.name === (name === route.wildcard ? name : camel(name)));
      const type = variable?.type ?? inputFields[camel(name)]?.type;
      parameters.push({
        name,
        in: 'path',
        required: true,
        schema: type ? this.parameterSchema(type) : { type: 'string' },
        ...(name === route.wildcard ? { description: 'May contain slashes (an image name such as library/busybox).' } : {}),
      });
    }
    for (const variable of variables) {
      if (variable.name === 'input' || pathNames.some((p) => camel(p) === variable.name || p === variable.name)) continue;
      // A paged route's `after` is the server's, never the client's.
      if (route.pages !== undefined && variable.name === 'after') continue;
      parameters.push({
        name: snake(variable.name),
        in: 'query',
        required: isNonNullType(variable.type) && !variable.hasDefault,
        schema: this.parameterSchema(variable.type),
      });
    }

    const bodyFields = Object.values(inputFields).filter((field) => !pathNames.some((p) => camel(p) === field.name));
    const hasBody = inputType !== undefined && bodyFields.length > 0 && route.method !== 'GET' && route.method !== 'DELETE';
    const requestBody = hasBody
      ? {
          required: bodyFields.some((f) => isNonNullType(f.type) && f.defaultValue === undefined),
          content: { 'application/json': { schema: this.inputObjectSchema(inputType, new Set(pathNames.map(camel))) } },
        }
      : undefined;

    const responses: Record<string, unknown> = {};
    if (route.status === 204) {
      responses['204'] = { description: 'Done; no body.' };
    } else {
      responses[String(route.status)] = {
        description: route.status === 201 ? 'Created.' : 'OK.',
        ...(route.location ? { headers: { Location: { description: 'The new object.', schema: { type: 'string' } } } } : {}),
        content: { 'application/json': { schema: this.resultSchema(route, operation) } },
      };
    }
    const errors = { ...COMMON_ERRORS, ...(operation.operation === OperationTypeNode.MUTATION ? WRITE_ERRORS : {}) };
    for (const status of Object.keys(errors).sort()) responses[status] = { $ref: '#/components/responses/Error' };

    return {
      tags: [tagOf(route)],
      summary: `${route.operation} (GraphQL ${operation.operation})`,
      'x-graphql-operation': route.operation,
      ...(parameters.length ? { parameters } : {}),
      ...(requestBody ? { requestBody } : {}),
      responses,
    };
  }

  /** The body: the data at the route's result path (default: the operation's one root field). */
  private resultSchema(route: RestRoute, operation: OperationDefinitionNode): JsonSchema {
    if (route.pages !== undefined) {
      const node = this.resultSchema({ ...route, pages: undefined, result: `${route.pages}.edges.node` }, operation);
      return { type: 'array', items: node.anyOf ? (node.anyOf as JsonSchema[]).find((s) => s.type !== 'null')! : node };
    }
    const rootType = operation.operation === OperationTypeNode.MUTATION ? this.schema.getMutationType()! : this.schema.getQueryType()!;
    const root = operation.selectionSet.selections[0] as FieldNode;
    const keys = route.result === undefined ? [(root.alias ?? root.name).value] : route.result.split('.').filter(Boolean);
    // Mutations answer their typed errors as error responses (rest/executor.ts), never as a body.
    const withoutErrors = operation.operation === OperationTypeNode.MUTATION;
    if (keys.length === 0) return this.selectionSchema(rootType, [operation.selectionSet], withoutErrors);
    let type: GraphQLOutputType = rootType;
    let selections: SelectionSetNode[] = [operation.selectionSet];
    for (const key of keys) {
      const parent = getNamedType(type) as GraphQLObjectType;
      const nodes = this.collect(parent, selections).get(key);
      if (!nodes) throw new Error(`route ${route.method} ${route.path}: ${route.operation} selects no ${key}`);
      type = parent.getFields()[nodes[0].name.value].type;
      selections = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
    }
    return this.typeSchema(type, selections, withoutErrors);
  }

  /** A field's schema: its GraphQL type's, null allowed unless it is non-null. */
  private typeSchema(type: GraphQLOutputType, selections: SelectionSetNode[], withoutErrors = false): JsonSchema {
    if (isNonNullType(type)) return this.nonNullSchema(type.ofType, selections, withoutErrors);
    return orNull(this.nonNullSchema(type, selections, withoutErrors));
  }

  private nonNullSchema(type: GraphQLOutputType, selections: SelectionSetNode[], withoutErrors: boolean): JsonSchema {
    if (isListType(type)) return { type: 'array', items: this.typeSchema(type.ofType, selections) };
    if (isScalarType(type)) return scalarSchema(type);
    if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.value as string) };
    return this.selectionSchema(type as GraphQLNamedType, selections, withoutErrors);
  }

  /** An object, or for an interface or union one schema per possible type (only those that differ). */
  private selectionSchema(type: GraphQLNamedType, selections: SelectionSetNode[], withoutErrors = false): JsonSchema {
    const concrete = isAbstractType(type) ? this.schema.getPossibleTypes(type) : [type as GraphQLObjectType];
    const candidates = concrete.filter((t) => !(withoutErrors && t.getInterfaces().some((i) => i.name === 'Error')));
    const variants: JsonSchema[] = [];
    for (const object of [...candidates].sort((a, b) => a.name.localeCompare(b.name))) {
      const schema = this.objectSchema(object, selections);
      if (!variants.some((v) => JSON.stringify(v) === JSON.stringify(schema))) variants.push(schema);
    }
    return variants.length === 1 ? variants[0] : { anyOf: variants };
  }

  /**
   * One object type's members for the selection. A selection that is exactly one fragment
   * (`...AppBody`) becomes a shared component named after it (`App`), so the document names
   * what clients see in several places.
   */
  private objectSchema(object: GraphQLObjectType, selections: SelectionSetNode[]): JsonSchema {
    const applying = selections.flatMap((set) => set.selections).filter((s) => this.applies(s, object));
    const [only] = applying;
    if (applying.length === 1 && only.kind === Kind.FRAGMENT_SPREAD) {
      const fragment = this.fragments.get(only.name.value)!;
      const name = fragment.name.value.replace(/Body$/, '');
      if (!this.componentSchemas.has(name)) {
        this.componentSchemas.set(name, {}); // placeholder against recursion
        const fragmentType = this.schema.getType(fragment.typeCondition.name.value)!;
        this.componentSchemas.set(name, this.selectionSchema(fragmentType, [fragment.selectionSet]));
      }
      return { $ref: `#/components/schemas/${name}` };
    }
    const properties: Record<string, JsonSchema> = {};
    for (const [key, nodes] of this.collect(object, selections)) {
      const fieldName = nodes[0].name.value;
      if (fieldName === '__typename') {
        properties[key] = { type: 'string', const: object.name };
        continue;
      }
      const field = object.getFields()[fieldName];
      const description = field.description ? { description: field.description } : {};
      const sub = nodes.flatMap((n) => (n.selectionSet ? [n.selectionSet] : []));
      properties[key] = { ...this.typeSchema(field.type, sub), ...description };
    }
    return { type: 'object', properties, required: Object.keys(properties), additionalProperties: false };
  }

  /** Whether a fragment (spread or inline) applies to `object` (its type, an interface of it, a union it is in). */
  private applies(selection: SelectionSetNode['selections'][number], object: GraphQLObjectType): boolean {
    if (selection.kind === Kind.FIELD) return true;
    const condition =
      selection.kind === Kind.INLINE_FRAGMENT
        ? selection.typeCondition?.name.value
        : this.fragments.get(selection.name.value)?.typeCondition.name.value;
    if (!condition || condition === object.name) return true;
    const type = this.schema.getType(condition);
    return !!type && isAbstractType(type) && this.schema.isSubType(type, object);
  }

  /** graphql-js's field collection for one object type: response key → the field nodes merged under it. */
  private collect(
    object: GraphQLObjectType,
    selections: SelectionSetNode[],
    into = new Map<string, FieldNode[]>(),
  ): Map<string, FieldNode[]> {
    for (const set of selections) {
      for (const selection of set.selections) {
        if (!this.applies(selection, object)) continue;
        if (selection.kind === Kind.FIELD) {
          const key = (selection.alias ?? selection.name).value;
          into.set(key, [...(into.get(key) ?? []), selection]);
        } else if (selection.kind === Kind.INLINE_FRAGMENT) {
          this.collect(object, [selection.selectionSet], into);
        } else {
          this.collect(object, [this.fragments.get(selection.name.value)!.selectionSet], into);
        }
      }
    }
    return into;
  }

  /** A path or query parameter: its text read as the variable's type (rest/executor.ts scalarFromString). */
  private parameterSchema(type: GraphQLInputType): JsonSchema {
    const named = getNamedType(type);
    if (named.name === 'Int') return { type: 'integer' };
    if (named.name === 'Boolean') return { type: 'boolean' };
    if (isEnumType(named)) return { type: 'string', enum: named.getValues().map((v) => v.name) };
    return { type: 'string' };
  }

  /**
   * An input object as the body: snake_case members (rest/executor.ts fitInput reads them so),
   * the non-null ones without a default required, other members allowed and ignored (clients PUT
   * back whole representations). Path parameters fill the members named in `fromPath`.
   */
  private inputObjectSchema(type: GraphQLInputType, fromPath = new Set<string>()): JsonSchema {
    const inner = nullable(type);
    if (!isInputObjectType(inner)) return {};
    const properties: Record<string, JsonSchema> = {};
    const required: string[] = [];
    for (const field of Object.values(inner.getFields())) {
      if (fromPath.has(field.name)) continue;
      const key = snake(field.name);
      const description = field.description ? { description: field.description } : {};
      properties[key] = { ...this.inputSchema(field.type, key), ...description };
      if (isNonNullType(field.type) && field.defaultValue === undefined) required.push(key);
    }
    return { type: 'object', properties, ...(required.length ? { required } : {}) };
  }

  private inputSchema(type: GraphQLInputType, key: string): JsonSchema {
    return isNonNullType(type) ? this.presentInputSchema(type.ofType, key) : orNull(this.presentInputSchema(type, key));
  }

  private presentInputSchema(type: GraphQLInputType, key: string): JsonSchema {
    if (isListType(type)) return { type: 'array', items: this.inputSchema(type.ofType, key) };
    if (isInputObjectType(type)) return this.inputObjectSchema(type);
    if (isEnumType(type)) return { type: 'string', enum: type.getValues().map((v) => v.name) };
    const schema = scalarSchema(getNamedType(type));
    // Texts are bounded per field (README "Limits"), checked before the operation runs.
    if (schema.type === 'string' && !schema.format) return { ...schema, maxLength: MAX_TEXT_CHARS[key] ?? DEFAULT_MAX_TEXT_CHARS };
    return schema;
  }
}

function nullable<T extends GraphQLInputType>(type: T): GraphQLInputType {
  return isNonNullType(type) ? type.ofType : type;
}

function scalarSchema(type: { name: string }): JsonSchema {
  const schema = SCALARS[type.name];
  if (!schema) throw new Error(`no JSON Schema for the scalar ${type.name}: add it to rest/openapi.ts`);
  return { ...schema };
}

/** `schema`, or null. */
function orNull(schema: JsonSchema): JsonSchema {
  const type = schema.type;
  if (typeof type === 'string' && schema.enum === undefined) return { ...schema, type: [type, 'null'] };
  if (Array.isArray(type)) return { ...schema, type: [...(type as string[]), 'null'] };
  if (Object.keys(schema).length === 0) return schema; // any JSON, null included
  return { anyOf: [schema, { type: 'null' }] };
}
