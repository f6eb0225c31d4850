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
import { apqPlugin, loadTrustedDocuments, trustedDocumentsPlugins } from '../graphql/persisted';
import { maskGraphQLError } from './errors';

export interface ServerContext {
  identity: Identity;
}

export type Yoga = YogaServerInstance<ServerContext, Context>;

/** graphql-sse's protocol, both modes (yoga's plugin): the path EventSource clients use. */
export const GRAPHQL_SSE_PATH = '/graphql/stream';

/** GraphQL over HTTP at /graphql, and GraphiQL for browsers. */
export function createGraphQL(schema: GraphQLSchema, deps: AppDeps): Yoga {
  const limits = deps.config.graphqlLimits;
  const introspection = deps.config.introspection;
  const rules = [...limitRules(limits), inputTextsRule];
  // Envelop types parse's and validate's results as `any` (for every graphql-js version); these
  // are graphql-js 16's.
  const plugins: Plugin[] = [
    {
      onParse: ({ parseFn, setParseFn }) =>
        setParseFn((source, options) => parseFn(source, { ...options, maxTokens: limits.maxTokens }) as DocumentNode),
      // The limits first, alone: they are linear in the document, and a document over them is
      // refused before graphql-js's own rules walk it (some of those are not linear).
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
  if (deps.config.compiledQueries) plugins.push(useCompiledQueries());
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
  // graphql-sse's protocol, distinct and single connection mode, at /graphql/stream (yoga's own
  // SSE at /graphql speaks the distinct mode only).
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
    // CORS is answered for every path in server.ts (src/http/cors.ts); yoga's default would
    // reflect any origin.
    cors: false,
    batching: deps.config.batchLimit > 0 ? { limit: deps.config.batchLimit } : false,
    // server.ts reads every body before yoga sees it, bounded by MAX_BODY_BYTES (413 above it).
    // Yoga's own limit would pipe each body through a TransformStream again (a stream pipeline
    // and an AbortSignal per request: a tenth of a small query's CPU, bench scenario 1).
    maxRequestBodySize: false,
    graphiql: {
      title: 'platform GraphQL',
      // No placeholder header: it would be sent as is and answered 401. The default query says
      // where the token goes; it is not kept in the browser's storage.
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

/** How GraphQL errors are masked: yoga's maskedErrors, and the direct path's errors thrown before a result. */
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

/**
 * Yoga's CSRF prevention: a POST a browser would send without a preflight (a form's
 * urlencoded, multipart or text/plain body) is refused unless it carries a header only script
 * can set. GETs are exempt: yoga never runs a mutation on a GET, auth is a bearer token or a
 * single-use ticket (nothing ambient for a forged request to ride on), and a browser's
 * EventSource can only GET without headers.
 */
function csrfPrevention(): Plugin {
  const plugin = useCSRFPrevention();
  return {
    onRequestParse: (payload) => (payload.request.method === 'GET' ? undefined : plugin.onRequestParse?.(payload)),
  };
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
