import type { IncomingMessage, ServerResponse } from 'node:http';
import { createGraphQLError, processRegularResult } from 'graphql-yoga';
import { getOperationAST, GraphQLError, OperationTypeNode, type DocumentNode, type ExecutionResult, type GraphQLSchema } from 'graphql';
import type { Identity } from '../auth/token.service';
import { partialResult } from '../graphql/partial-results';
import { servedDirectly } from './answers';
import type { Yoga } from './graphql';

type RegularMediaType = 'application/json' | 'application/graphql-response+json';

/** Yoga's envelop without its fetch layer (a third of a small query's CPU); declines (`false`) what it does not serve. */
export function createDirectGraphQL(
  yoga: Yoga,
  options: { enabled: boolean; maskError: (error: unknown) => Error },
): (req: IncomingMessage, res: ServerResponse, identity: Identity, json: unknown) => Promise<boolean> {
  if (!options.enabled) return () => Promise.resolve(false);
  // usePreventMutationViaGET reads the method to mark a syntax error 400, and yoga caches that verdict;
  // nothing reads more of it, so every request shares one.
  const postRequest = new yoga.fetchAPI.Request(GRAPHQL_URL, { method: 'POST' });
  const mediaTypes = new Map<string | undefined, RegularMediaType | null>();
  return async (req, res, identity, json) => {
    if (req.method !== 'POST' || !isJsonContentType(req.headers['content-type'])) return false;
    const accept = req.headers.accept;
    let mediaType = mediaTypes.get(accept);
    if (mediaType === undefined) {
      mediaType = regularMediaType(accept);
      // A client sends the same few Accept headers; bounded against one that sends ever new ones.
      if (mediaTypes.size >= 64) mediaTypes.clear();
      mediaTypes.set(accept, mediaType);
    }
    if (!mediaType) return false;
    const params = operationParams(json);
    if (!params) return false;

    const enveloped = yoga.getEnveloped({ identity, params, request: postRequest });
    // Envelop types these results as `any`; they are graphql-js 16's.
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
      // Thrown before any result (the database down during the cost check): masked as yoga would.
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

/** Only what yoga's own parameter check would pass unchanged. */
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

/** As yoga: the first Accept entry matching decides, `application/json` winning a wildcard; null for SSE, multipart, 406. */
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
