import path from 'node:path';
import { codegen } from '@graphql-codegen/core';
import * as fragmentMatcher from '@graphql-codegen/fragment-matcher';
import { introspectionFromSchema, parse, printSchema, type GraphQLSchema } from 'graphql';

/**
 * Committed beside schema.graphql (a test fails when stale): possible-types.json lets client caches match
 * fragments on interfaces and unions; introspection.json serves schema-aware caches and offline tools.
 */
export const POSSIBLE_TYPES_FILE = path.join(__dirname, 'possible-types.json');
export const INTROSPECTION_FILE = path.join(__dirname, 'introspection.json');

export async function clientMetadata(schema: GraphQLSchema): Promise<{ possibleTypes: string; introspection: string }> {
  const possibleTypes = await codegen({
    filename: POSSIBLE_TYPES_FILE,
    schema: parse(printSchema(schema)),
    schemaAst: schema,
    documents: [],
    config: {},
    plugins: [{ fragmentMatcher: { apolloClientVersion: 3 } }],
    pluginMap: { fragmentMatcher },
  });
  return {
    possibleTypes: `${possibleTypes.trimEnd()}\n`,
    introspection: `${JSON.stringify(introspectionFromSchema(schema, { descriptions: true }), null, 2)}\n`,
  };
}
