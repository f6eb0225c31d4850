import { lexicographicSortSchema, type GraphQLSchema } from 'graphql';
import { recordMutations } from '../src/audit/record-mutations';
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
import './deploy-hook';
import './event-subscription';
import './audit-event';
import './revision';

let schema: GraphQLSchema | undefined;

/** The executable schema, built once. Importing this file registers every type. */
export function getSchema(): GraphQLSchema {
  // Every change, whatever door it came through, goes to the audit log and the domain events.
  return (schema ??= recordMutations(builder.toSchema()));
}

export function printableSchema(): GraphQLSchema {
  return lexicographicSortSchema(getSchema());
}
