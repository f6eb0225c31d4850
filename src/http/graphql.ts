import { createYoga, type GraphiQLOptions, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { GraphQLError, NoSchemaIntrospectionCustomRule, type GraphQLSchema } from 'graphql';
import type { Identity } from '../auth/token.service';
import { createContext, type AppDeps, type Context } from '../context';
import { useCompiledQueries } from '../graphql/compiled';
import { useCostLimit } from '../graphql/cost';
import { hideSuggestions, limitRules } from '../graphql/limits';
import { maskGraphQLError } from './errors';

export interface ServerContext {
  identity: Identity;
}

export type Yoga = YogaServerInstance<ServerContext, Context>;

/** GraphQL over HTTP at /graphql, and GraphiQL for browsers. */
export function createGraphQL(schema: GraphQLSchema, deps: AppDeps): Yoga {
  const limits = deps.config.graphqlLimits;
  const introspection = deps.config.introspection;
  const rules = limitRules(limits);
  const plugins: Plugin[] = [
    {
      onParse: ({ parseFn, setParseFn }) => setParseFn((source, options) => parseFn(source, { ...options, maxTokens: limits.maxTokens })),
      // The limits first, alone: they are linear in the document, and a document over them is
      // refused before graphql-js's own rules walk it (some of those are not linear).
      onValidate: ({ validateFn, setValidationFn }) =>
        setValidationFn((schema, document, all, typeInfo, options) => {
          const refused = validateFn(schema, document, rules, undefined, options);
          return refused.length ? refused : validateFn(schema, document, all, typeInfo, options);
        }),
    },
    // Depth and cost need the variables: checked before execution, for every transport.
    useCostLimit(limits),
    useCompiledQueries(),
  ];
  if (!introspection) {
    plugins.push({
      onValidate: ({ addValidationRule }) => {
        addValidationRule(NoSchemaIntrospectionCustomRule);
        return ({ valid, result, setResult }) => {
          if (!valid) setResult(result.map((error) => new GraphQLError(hideSuggestions(error.message), error)));
        };
      },
    });
  }
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    context: ({ identity }) => createContext(identity, deps),
    maskedErrors: { maskError: maskGraphQLError(deps.log, { suggestions: introspection }) },
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
