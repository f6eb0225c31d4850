import { lexicographicSortSchema, type GraphQLSchema } from 'graphql';
import { builder } from './builder';
import './deployment';
import './deployment-target';
import './errors';
import './connection';
import './app';
import './category';
import './app-template';
import './local-image';
import './metadata';
import './registry';
import './repository';
import './search';
import './service';
import './subscription';
import './subscription-ticket';
import './template';
import './template-repo';
import './token';

let schema: GraphQLSchema | undefined;

/** The executable schema, built once. Importing this file registers every type. */
export function getSchema(): GraphQLSchema {
  return (schema ??= builder.toSchema());
}

export function printableSchema(): GraphQLSchema {
  return lexicographicSortSchema(getSchema());
}
