import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGraphQLError, processRegularResult } from 'graphql-yoga';
import { getOperationAST, GraphQLError, OperationTypeNode, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Identity } from '../auth/token.service';
import { partialResult } from '../graphql/partial-results';
import { servedDirectly } from './answers';
import type { Yoga } from './graphql';

/** The media types yoga's regular (one JSON document) result processor answers with. */
type RegularMediaType = 'application/json' | 'application/graphql-response+json';

/**
 * GraphQL-over-HTTP's common request, run through yoga's envelop without yoga's fetch layer:
 * a POST of one JSON operation (`query`, `operationName`, `variables`), a query or a mutation,
 * asking for a JSON answer. Yoga wraps such a request in WHATWG Request and Response objects,
 * its hook chain and promise helpers: about a third of the CPU of a small query (bench scenario
 * 1; the same route through REST, which runs the same compiled operation, costs two thirds).
 *
 * The operation runs exactly as under yoga: `yoga.getEnveloped` gives the same parse and
 * validate (yoga's caches, the limits), context, cost check, compiled execution and error
 * masking that graphql-ws uses. The answer is what yoga's result processing makes of it:
 * partialResults (the one `onResultProcess` hook of ours), then yoga's own regular result
 * processor (`processRegularResult`: status and headers from the errors, internals removed); an
 * answer without errors is written directly, as that processor would write it.
 *
 * Anything else — another method or content type, an Accept yoga would answer with SSE or
 * multipart or a 406, a batch, `extensions` (APQ, persisted operations), trusted-documents mode,
 * a document that does not parse or validate, a subscription — is declined before anything
 * runs (`false`) and goes to yoga as before. test/graphql/direct-path.test.ts sends the same
 * requests both ways and compares status, headers and body.
 */
export function createDirectGraphQL(
  yoga: Yoga,
  options: { enabled: boolean; maskError: (error: unknown) => Error },
): (req: IncomingMessage, res: ServerResponse, identity: Identity, json: unknown) => Promise<boolean> {
  if (!options.enabled) return () => Promise.resolve(false);
  return async (req, res, identity, json) => {
    if (req.method !== 'POST' || !isJsonContentType(req.headers['content-type'])) return false;
    const mediaType = regularMediaType(req.headers.accept);
    if (!mediaType) return false;
    const params = operationParams(json);
    if (!params) return false;

    // Yoga's hooks read the request's method (usePreventMutationViaGET marks a syntax error as a
    // 400 with it, and yoga's parse cache keeps that error): a body-less Request says POST.
    const request = new yoga.fetchAPI.Request(GRAPHQL_URL, { method: 'POST' });
    const enveloped = yoga.getEnveloped({ identity, params, request });
    // Envelop types parse's, validate's and execute's results as `any` (for every graphql-js
    // version); these are graphql-js 16's, as in graphql-ws.ts.
    let document: DocumentNode;
    try {
      document = enveloped.parse(params.query) as DocumentNode;
    } catch {
      return false; // yoga answers a syntax error (its parse cache keeps the verdict)
    }
    const schema = enveloped.schema as GraphQLSchema;
    if ((enveloped.validate(schema, document) as readonly GraphQLError[]).length > 0) return false;
    const operation = getOperationAST(document, params.operationName)?.operation;
    if (operation !== OperationTypeNode.QUERY && operation !== OperationTypeNode.MUTATION) return false;

    let result: ExecutionResult;
    try {
      const contextValue: unknown = await enveloped.contextFactory();
      result = (await enveloped.execute({
        schema,
        document,
        contextValue,
        variableValues: params.variables,
        operationName: params.operationName,
      })) as ExecutionResult;
    } catch (error) {
      // What yoga makes of an error thrown before there is a result (the database down while
      // the cost check counts a list): masked, as one request error.
      const masked = options.maskError(error);
      result = { errors: [masked instanceof GraphQLError ? masked : createGraphQLError(masked.message, { originalError: masked })] };
    }
    servedDirectly.add(res);
    await send(res, partialResult(result), mediaType, yoga);
    return true;
  };
}

const GRAPHQL_URL = 'http://localhost/graphql';

interface OperationParams {
  query: string;
  operationName?: string;
  variables?: Record<string, unknown>;
}

/** One operation (the body's JSON) with only the members yoga's own parameter check would pass as they are. */
function operationParams(parsed: unknown): OperationParams | null {
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return null;
  const { query, operationName, variables, ...rest } = parsed as Record<string, unknown>;
  for (const _key in rest) return null;
  if (typeof query !== 'string') return null;
  if (operationName != null && typeof operationName !== 'string') return null;
  if (variables != null && (typeof variables !== 'object' || Array.isArray(variables))) return null;
  return {
    query,
    ...(operationName != null ? { operationName } : {}),
    ...(variables != null ? { variables: variables as Record<string, unknown> } : {}),
  };
}

/** yoga's isContentTypeMatch for application/json: the first listed type, parameters allowed. */
function isJsonContentType(header: string | undefined): boolean {
  const first = header?.split(',')[0];
  return first === 'application/json' || !!first?.startsWith('application/json;');
}

const REGULAR: readonly RegularMediaType[] = ['application/graphql-response+json', 'application/json'];

/**
 * The media type yoga's result processors choose for a single result, when it is one of the
 * regular processor's (null otherwise: SSE, multipart, or a 406). Yoga walks the Accept list
 * in reverse and lets the last match win, the regular processor last: the first listed type that
 * either regular type matches decides, and within it `application/json` wins over
 * `application/graphql-response+json` when a wildcard matches both. Only utf-8 is accepted.
 */
export function regularMediaType(accept: string | undefined): RegularMediaType | null {
  for (const entry of (accept || '*/*').replace(/\s/g, '').toLowerCase().split(',')) {
    const [type, ...params] = entry.split(';');
    const charset = params.find((param) => param.includes('charset=')) ?? 'charset=utf-8';
    if (charset !== 'charset=utf-8') continue;
    let chosen: RegularMediaType | null = null;
    for (const candidate of REGULAR) if (matches(type, candidate)) chosen = candidate;
    if (chosen) return chosen;
  }
  return null;
}

function matches(asked: string, offered: string): boolean {
  const [askedType, askedSub] = asked.split('/');
  const [type, sub] = offered.split('/');
  return (askedType === '*' || askedType === type) && (askedSub === '*' || askedSub === sub);
}

/** The answer yoga's regular result processor would give, written in one `end`. */
async function send(res: ServerResponse, result: ExecutionResult, mediaType: RegularMediaType, yoga: Yoga): Promise<void> {
  if (!result.errors?.length && !result.extensions) {
    const text = JSON.stringify(result);
    res.writeHead(200, { 'content-type': `${mediaType}; charset=utf-8`, 'content-length': Buffer.byteLength(text) });
    return void res.end(text);
  }
  const response = processRegularResult(result, yoga.fetchAPI, mediaType);
  const headers: Record<string, string> = {};
  response.headers.forEach((value, key) => (headers[key] = value));
  const text = await response.text();
  res.writeHead(response.status, headers);
  res.end(text);
}
