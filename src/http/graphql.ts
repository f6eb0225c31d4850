import { createYoga, type GraphiQLOptions, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { NoSchemaIntrospectionCustomRule, type GraphQLSchema } from 'graphql';
import type { Identity } from '../auth/token.service';
import { createContext, type AppDeps, type Context } from '../context';
import { limitRules } from '../graphql/limits';
import { maskGraphQLError } from './errors';
import { inputTextsRule } from './input-limits';

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
      onValidate: ({ addValidationRule }) => [...limitRules(limits), inputTextsRule].forEach((rule) => addValidationRule(rule)),
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
    renderGraphiQL,
    landingPage: false,
    logging: false,
    plugins,
  });
}

/**
 * GraphiQL's assets are served from @graphql-yoga/render-graphiql, not a CDN, so it works
 * offline. The package is a 9 MB script held as one string, and tsx's module lexer keeps a
 * WebAssembly memory the size of the largest file it read: loaded at start it cost ~75 MB of
 * RSS (bench/RESULTS.md, scenario 4). It loads on the first GraphiQL page instead.
 */
async function renderGraphiQL(options: GraphiQLOptions): Promise<string> {
  const { renderGraphiQL: render } = await import('@graphql-yoga/render-graphiql');
  return render(options);
}
