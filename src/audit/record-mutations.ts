import { defaultFieldResolver, type GraphQLFieldResolver, type GraphQLSchema } from 'graphql';
import type { Context } from '../context';

/** Mutations that change nothing: a preview, and a ticket that only opens a read stream. */
const NOT_CHANGES = new Set(['previewAppTemplate', 'createSubscriptionTicket']);

// Every transport (yoga, graphql-ws, the direct path, REST's in-process operations) runs these resolvers,
// so this is the one place every change passes, a scope refusal included.
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
