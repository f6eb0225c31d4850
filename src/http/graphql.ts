import { renderGraphiQL } from '@graphql-yoga/render-graphiql';
import { createYoga, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { NoSchemaIntrospectionCustomRule, type GraphQLSchema } from 'graphql';
import type { Identity } from '../auth/token.service';
import { createContext, type AppDeps, type Context } from '../context';
import { limitRules } from '../graphql/limits';
import { maskGraphQLError } from './errors';

export interface ServerContext {
  identity: Identity;
}

export type Yoga = YogaServerInstance<ServerContext, Context>;

/** GraphQL over HTTP at /graphql, and GraphiQL for browsers. */
export function createGraphQL(schema: GraphQLSchema, deps: AppDeps): Yoga {
  const limits = deps.config.graphqlLimits;
  const plugins: Plugin[] = [
    {
      onParse: ({ parseFn, setParseFn }) => setParseFn((source, options) => parseFn(source, { ...options, maxTokens: limits.maxTokens })),
      onValidate: ({ addValidationRule }) => limitRules(limits).forEach((rule) => addValidationRule(rule)),
    },
  ];
  if (!deps.config.introspection) {
    plugins.push({ onValidate: ({ addValidationRule }) => addValidationRule(NoSchemaIntrospectionCustomRule) });
  }
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    context: ({ identity }) => createContext(identity, deps),
    maskedErrors: { maskError: maskGraphQLError(deps.log) },
    graphiql: {
      title: 'platform GraphQL',
      headers: JSON.stringify({ Authorization: 'Bearer <your token>' }),
    },
    // GraphiQL's assets are served from this package, not a CDN: it works offline.
    renderGraphiQL,
    landingPage: false,
    logging: false,
    plugins,
  });
}
