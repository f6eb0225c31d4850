import type { IncomingMessage, Server } from 'node:http';
import type { Duplex } from 'node:stream';
import { CloseCode } from 'graphql-ws';
import { useServer } from 'graphql-ws/use/ws';
import {
  GraphQLError,
  type DocumentNode,
  type execute,
  type ExecutionArgs,
  type GraphQLFormattedError,
  type GraphQLSchema,
  type subscribe,
} from 'graphql';
import { WebSocketServer } from 'ws';
import type { Identity } from '../auth/token.service';
import type { AppDeps } from '../context';
import { UnauthenticatedError } from '../errors';
import { MAX_BODY_BYTES } from '../net/request-body';
import { maskGraphQLError } from './errors';
import { checkInputTexts } from '../parts/text-limits';
import type { Yoga } from './graphql';
import { identify, redeemTicket } from './identify';
import { originOf } from '../net/request-origin';
import { requestUrl } from '../net/request-target';
import { jsonErrorResponse } from '../net/client-errors';

type Enveloped = ReturnType<Yoga['getEnveloped']>;

/** Browsers cannot set WebSocket headers: the token or a ticket comes in connection_init. */
export function attachGraphQLWs(server: Server, yoga: Yoga, deps: AppDeps): { close(): Promise<void> } {
  const wss = new WebSocketServer({ noServer: true, maxPayload: MAX_BODY_BYTES });
  const onUpgrade = (req: IncomingMessage, socket: Duplex, head: Buffer) => {
    const { pathname } = requestUrl(req.url);
    if (pathname !== '/graphql') {
      socket.end(jsonErrorResponse(404, `no such path: ${pathname}`));
      return;
    }
    wss.handleUpgrade(req, socket, head, (ws) => wss.emit('connection', ws, req));
  };
  server.on('upgrade', onUpgrade);

  const disposable = useServer<Record<string, unknown>, { identity: Identity }>(
    {
      onConnect: async (ctx) => {
        const params = ctx.connectionParams ?? {};
        const given = params.authorization ?? params.Authorization ?? ctx.extra.request.headers.authorization;
        let identity: Identity;
        try {
          // A page that should not hold its token in script can pass a subscription ticket instead.
          identity =
            typeof params.ticket === 'string' && given === undefined
              ? await redeemTicket(deps, params.ticket)
              : await identify(deps, typeof given === 'string' ? given : undefined);
        } catch (error) {
          if (!(error instanceof UnauthenticatedError)) throw error;
          ctx.extra.socket.close(CloseCode.Unauthorized, error.message);
          return false;
        }
        if (!identity.scopes.has('read')) {
          ctx.extra.socket.close(CloseCode.Forbidden, 'this token may not read');
          return false;
        }
        ctx.extra.identity = { ...identity, origin: originOf(ctx.extra.request, 'graphql-ws', deps.automation.clientAddress) };
        return true;
      },
      onSubscribe: async (ctx, _id, payload) => {
        const enveloped = yoga.getEnveloped({ identity: ctx.extra.identity!, params: payload });
        // Envelop types these as `any`; they are graphql-js 16's.
        let document: DocumentNode;
        try {
          checkInputTexts(payload.variables);
          document = enveloped.parse(payload.query) as DocumentNode;
        } catch (error) {
          // A syntax error as it is; a refusal (trusted documents, variables) as its domain error, masked like over HTTP.
          return [maskGraphQLError(deps.log)(error) as GraphQLError];
        }
        const schema = enveloped.schema as GraphQLSchema;
        const errors = enveloped.validate(schema, document) as readonly GraphQLError[];
        if (errors.length > 0) return errors;
        return {
          schema,
          document,
          operationName: payload.operationName,
          variableValues: payload.variables,
          contextValue: await enveloped.contextFactory(),
          rootValue: { enveloped },
        } satisfies ExecutionArgs;
      },
      // `extensions.http` is yoga's note to itself of an HTTP status; over HTTP yoga strips it.
      onNext: (_ctx, _id, _payload, _args, result) => (result.errors ? { ...result, errors: result.errors.map(withoutHttp) } : undefined),
      onError: (_ctx, _id, _payload, errors) => errors.map(withoutHttp),
      execute: (args) => (args.rootValue as { enveloped: Enveloped }).enveloped.execute(args) as ReturnType<typeof execute>,
      subscribe: (args) => (args.rootValue as { enveloped: Enveloped }).enveloped.subscribe(args) as ReturnType<typeof subscribe>,
    },
    wss,
  );

  return {
    async close() {
      server.off('upgrade', onUpgrade);
      await disposable.dispose();
    },
  };
}

function withoutHttp(error: GraphQLError): GraphQLFormattedError {
  const { http: _http, ...extensions } = (error.extensions ?? {}) as Record<string, unknown>;
  const formatted = error.toJSON();
  return Object.keys(extensions).length
    ? { ...formatted, extensions }
    : { message: formatted.message, locations: formatted.locations, path: formatted.path };
}
