import { createYoga, type GraphiQLOptions, type Plugin, type YogaServerInstance } from 'graphql-yoga';
import { useCSRFPrevention } from '@graphql-yoga/plugin-csrf-prevention';
import { useGraphQLSSE } from '@graphql-yoga/plugin-graphql-sse';
import { GraphQLError, NoSchemaIntrospectionCustomRule, type DocumentNode, type GraphQLSchema } from 'graphql';
import type { Identity } from '../auth/token.service';
import { createContext, type AppDeps, type Context } from '../context';
import { useCompiledQueries } from '../graphql/compiled';
import { useCostLimit } from '../graphql/cost';
import { hideSuggestions, inputTextsRule, limitRules, validationAborted } from '../graphql/limits';
import { useOperationMetrics } from '../graphql/operation-metrics';
import { partialResults } from '../graphql/partial-results';
import { useSharedSubscriptionResults } from '../graphql/shared-subscriptions';
import { apqPlugin, loadTrustedDocuments, trustedDocumentsPlugins } from '../graphql/persisted';
import { maskGraphQLError } from './errors';

export interface ServerContext {
  identity: Identity;
}

export type Yoga = YogaServerInstance<ServerContext, Context>;

/** graphql-sse in both modes; yoga's own SSE at /graphql speaks the distinct mode only. */
export const GRAPHQL_SSE_PATH = '/graphql/stream';

export function createGraphQL(schema: GraphQLSchema, deps: AppDeps): Yoga {
  const limits = deps.config.graphqlLimits;
  const introspection = deps.config.introspection;
  const rules = [...limitRules(limits), inputTextsRule];
  // Envelop types these results as `any`; they are graphql-js 16's.
  const plugins: Plugin[] = [
    {
      onParse: ({ parseFn, setParseFn }) =>
        setParseFn((source, options) => parseFn(source, { ...options, maxTokens: limits.maxTokens }) as DocumentNode),
      // The linear limits alone first, so an oversized document never reaches graphql-js's non-linear rules.
      onValidate: ({ validateFn, setValidationFn }) =>
        setValidationFn((schema, document, all, typeInfo, options) => {
          const refused = validateFn(schema, document, rules, undefined, options) as readonly GraphQLError[];
          if (refused.length) return refused;
          // graphql-js's own budget (OverlappingFieldsCanBeMerged) ends with a bare message.
          return (validateFn(schema, document, all, typeInfo, options) as readonly GraphQLError[]).map((error) =>
            error.message === 'Validation aborted.' ? validationAborted() : error,
          );
        }),
    },
    partialResults(),
    // Depth and cost need the variables: checked before execution, for every transport.
    useCostLimit(limits),
  ];
  // One execution per event for all the subscribers of one subscription.
  plugins.push(useSharedSubscriptionResults());
  if (deps.config.compiledQueries) plugins.push(useCompiledQueries({ checkLeaves: deps.config.checkCompiledLeaves }));
  // After the compiled queries: it times and traces the execute function that really runs.
  plugins.push(useOperationMetrics());
  if (!introspection) {
    plugins.push({
      onValidate: ({ addValidationRule }) => {
        addValidationRule(NoSchemaIntrospectionCustomRule);
        return ({ valid, result, setResult }) => {
          if (!valid)
            setResult((result as readonly GraphQLError[]).map((error) => new GraphQLError(hideSuggestions(error.message), error)));
        };
      },
    });
  }
  plugins.push(csrfPrevention());
  plugins.push(useGraphQLSSE({ endpoint: GRAPHQL_SSE_PATH }));
  if (deps.config.trustedDocuments) {
    plugins.push(...trustedDocumentsPlugins(loadTrustedDocuments(deps.config.trustedDocumentsFile), deps.config.introspection));
  } else if (deps.config.apq) {
    plugins.push(apqPlugin());
  }
  return createYoga<ServerContext, Context>({
    schema,
    graphqlEndpoint: '/graphql',
    context: ({ identity }) => createContext(identity, deps),
    maskedErrors: { maskError: graphqlMaskError(deps) },
    // CORS is answered for every path in server.ts; yoga's default would reflect any origin.
    cors: false,
    batching: deps.config.batchLimit > 0 ? { limit: deps.config.batchLimit } : false,
    // server.ts already read the body under MAX_BODY_BYTES; yoga's limit would pipe it again (a tenth of the CPU).
    maxRequestBodySize: false,
    graphiql: {
      title: 'platform GraphQL',
      // No placeholder header: it would be sent as is and answered 401.
      defaultQuery: GRAPHIQL_DEFAULT_QUERY,
      shouldPersistHeaders: false,
      defaultEditorToolsVisibility: 'headers',
    },
    renderGraphiQL,
    landingPage: false,
    logging: false,
    plugins,
  });
}

/** Shared by yoga and the direct path, so both mask alike. */
export function graphqlMaskError(deps: AppDeps): (error: unknown) => Error {
  return maskGraphQLError(deps.log, { suggestions: deps.config.introspection });
}

const GRAPHIQL_DEFAULT_QUERY = `# platform GraphQL
#
# Every request needs a token. Put yours in the Headers tab below:
#
#   {"Authorization": "Bearer <your token>"}
#
# then load the schema for the docs explorer and autocompletion with the
# "Re-fetch GraphQL schema" button on the left (or Shift+Ctrl+R), and run
# this query with the play button (Ctrl+Enter).
#
# (It has no operation name on purpose: GraphiQL keeps the name it last read
# and, on the first run after the editor is replaced, asks the server for it.)

{
  me {
    username
    email
  }
}
`;

/** GETs are exempt: yoga never mutates on GET, no auth is ambient, and EventSource can only GET without headers. */
function csrfPrevention(): Plugin {
  const plugin = useCSRFPrevention();
  return {
    onRequestParse: (payload) => (payload.request.method === 'GET' ? undefined : plugin.onRequestParse?.(payload)),
  };
}

/** Lazy: the 9 MB package held in tsx's lexer memory cost ~75 MB of RSS when loaded at start. */
async function renderGraphiQL(options: GraphiQLOptions): Promise<string> {
  const { renderGraphiQL: render } = await import('@graphql-yoga/render-graphiql');
  return render(options);
}
