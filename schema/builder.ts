import SchemaBuilder from '@pothos/core';
import ComplexityPlugin from '@pothos/plugin-complexity';
import DataloaderPlugin from '@pothos/plugin-dataloader';
import ErrorsPlugin from '@pothos/plugin-errors';
import RelayPlugin from '@pothos/plugin-relay';
import ScopeAuthPlugin from '@pothos/plugin-scope-auth';
import { GraphQLScalarType, Kind, type ValueNode } from 'graphql';
import type { Context } from '../src/context';
import { checkNodeCount, decodeGlobalID, MAX_NODES, resolveNodeOf, resolveNodesOrErrors } from './global-id';
import { fieldCost } from '../src/graphql/cost';
import {
  BadRequestError,
  ConflictError,
  ForbiddenError,
  NotFoundError,
  UpstreamError,
  UpstreamTimeoutError,
  ValidationError,
} from '../src/errors';

/**
 * The failures a caller can fix, returned by every mutation as typed results (schema/errors.ts).
 * ForbiddenError stays a thrown error: scope checks run before the resolver, as for queries.
 */
export const USER_ERRORS = [ValidationError, NotFoundError, ConflictError, BadRequestError, UpstreamError, UpstreamTimeoutError];

/** The Pothos builder and its plugins. It defines no types: each schema/<type>.ts does. */
export const builder = new SchemaBuilder<{
  Context: Context;
  AuthScopes: { read: boolean; write: boolean; deploy: boolean; admin: boolean };
  DefaultFieldNullability: false;
  /** `totalCount` runs its count query only when selected. */
  Connection: { totalCount: () => Promise<number> };
  Scalars: {
    DateTime: { Input: Date; Output: Date };
    JSON: { Input: unknown; Output: unknown };
    PortValue: { Input: number | string; Output: number | string };
  };
}>({
  // Scope checks first, so no other plugin's wrapper runs for a caller without the scope.
  plugins: [ScopeAuthPlugin, ErrorsPlugin, RelayPlugin, DataloaderPlugin, ComplexityPlugin],
  defaultFieldNullability: false,
  // Each field's cost, for the one cost check every transport runs before an operation
  // (src/graphql/cost.ts); the plugin's own per-resolver check is off.
  complexity: { disabled: true, fieldComplexity: fieldCost },
  errors: {
    defaultTypes: USER_ERRORS,
    // createRegistry returns `Registry | ValidationError | …` itself, not a wrapper with `data`.
    directResult: true,
    defaultUnionOptions: { name: ({ fieldName }) => `${fieldName[0].toUpperCase()}${fieldName.slice(1)}Result` },
  },
  relay: {
    // Opaque global ids (`Node.id`, base64 of `Type:key`) for normalized client caches; the
    // integer of interface A stays on every node as `databaseId` (schema/global-id.ts).
    nodeQueryOptions: {
      authScopes: { read: true },
      description: 'The object with this global id; null when there is none (and a BAD_REQUEST error for an id this API did not give out)',
      resolve: (_root, { id }, _ctx, _info, resolveNode) => resolveNodeOf(id, resolveNode),
    },
    nodesQueryOptions: {
      authScopes: { read: true },
      description: `The objects with these global ids (at most ${MAX_NODES}), in order; null for each that does not exist (with a BAD_REQUEST error at its index for an id this API did not give out)`,
      // As many nodes as ids (checkNodeCount refuses more than a page's worth).
      complexity: (args) => ({ field: 1, multiplier: Math.min(args.ids.length, MAX_NODES) }),
      resolve: (_root, { ids }, _ctx, _info, resolveNodes) => resolveNodesOrErrors(checkNodeCount(ids), resolveNodes),
    },
    nodeTypeOptions: { description: 'An object with an identity: its `id` is global (unique across types) and opaque' },
    decodeGlobalID,
    nodesOnConnection: true,
    cursorType: 'String',
  },
  scopeAuth: {
    authScopes: (ctx) => ({
      read: ctx.identity.scopes.has('read'),
      write: ctx.identity.scopes.has('write'),
      deploy: ctx.identity.scopes.has('deploy'),
      admin: ctx.identity.scopes.has('admin'),
    }),
    // Subscriptions are refused when they start, not on every event they would deliver.
    authorizeOnSubscribe: true,
    unauthorizedError: (_parent, _ctx, info) => new ForbiddenError(`this token may not use ${info.parentType.name}.${info.fieldName}`),
  },
});

builder.queryType({});
builder.mutationType({});
builder.subscriptionType({});

// ISO-8601 UTC with milliseconds and Z, as the original's clients parse.
builder.addScalarType(
  'DateTime',
  new GraphQLScalarType<Date, string>({
    name: 'DateTime',
    description: 'ISO-8601 UTC timestamp with milliseconds, e.g. 2014-07-17T14:00:40.512Z',
    serialize: (value) => (value instanceof Date ? value : new Date(String(value))).toISOString(),
    parseValue: (value) => new Date(String(value)),
    parseLiteral: (ast) => new Date(ast.kind === Kind.STRING ? ast.value : NaN),
  }),
);

builder.addScalarType(
  'JSON',
  new GraphQLScalarType({
    name: 'JSON',
    description: 'Free-form JSON',
    serialize: (value) => value,
    parseValue: (value) => value,
    parseLiteral: (ast) => literalValue(ast),
  }),
);

// Ports are "integer or string" in the spec, and clients send either; kept as given.
builder.addScalarType(
  'PortValue',
  new GraphQLScalarType<number | string, number | string>({
    name: 'PortValue',
    description: 'A port number, as an integer or a string',
    serialize: (value) => value as number | string,
    parseValue: (value) => {
      if (typeof value === 'number' || typeof value === 'string') return value;
      throw new TypeError('a port is an integer or a string');
    },
    parseLiteral: (ast) => {
      if (ast.kind === Kind.INT) return Number(ast.value);
      if (ast.kind === Kind.STRING) return ast.value;
      throw new TypeError('a port is an integer or a string');
    },
  }),
);

function literalValue(ast: ValueNode): unknown {
  switch (ast.kind) {
    case Kind.STRING:
    case Kind.ENUM:
      return ast.value;
    case Kind.INT:
    case Kind.FLOAT:
      return Number(ast.value);
    case Kind.BOOLEAN:
      return ast.value;
    case Kind.NULL:
      return null;
    case Kind.LIST:
      return ast.values.map(literalValue);
    case Kind.OBJECT:
      return Object.fromEntries(ast.fields.map((f) => [f.name.value, literalValue(f.value)]));
    default:
      return undefined;
  }
}
