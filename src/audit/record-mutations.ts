import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { Context } from '../context';

/** Mutations that change nothing: a preview, and a ticket that only opens a read stream. */
const NOT_CHANGES = new Set(['previewAppTemplate', 'createSubscriptionTicket']);

/**
 * Wraps every root mutation field of `schema` so that its outcome — the value, a typed error
 * result, or what it threw (a scope refusal too) — goes to the request's mutation stream. Every
 * transport runs these same field resolvers (yoga, the direct path, graphql-ws, and REST's
 * in-process operations, compiled or not), so this is the one place every change passes.
 */
export function recordMutations(schema: GraphQLSchema): GraphQLSchema {
  const mutation = schema.getMutationType();
  for (const field of Object.values(mutation?.getFields() ?? {})) {
    if (NOT_CHANGES.has(field.name)) continue;
    const resolve = (field.resolve ?? defaultFieldResolver) as GraphQLFieldResolver<unknown, Context>;
    field.resolve = async (root, args: Record<string, unknown>, context: Context, info) => {
      let result: unknown;
      try {
        result = await resolve(root, args, context, info);
      } catch (error) {
        await context.services.changes.settled({ identity: context.identity, operation: field.name, input: args.input ?? args, error });
        throw error;
      }
      await context.services.changes.settled({ identity: context.identity, operation: field.name, input: args.input ?? args, result });
      return result;
    };
  }
  return schema;
}
