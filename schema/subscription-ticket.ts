import type { IssuedTicket } from '../src/auth/ticket.service';
import { builder } from './builder';

const SubscriptionTicket = builder.objectRef<IssuedTicket>('SubscriptionTicket').implement({
  description: 'A single-use, short-lived credential for one subscription connection, for clients that cannot send headers',
  fields: (t) => ({
    ticket: t.exposeString('ticket', {
      description: 'Pass once as `?ticket=` on an SSE GET (EventSource) or as `ticket` in graphql-ws connectionParams; read scope only',
    }),
    expiresAt: t.field({ type: 'DateTime', description: 'Unused by then, it is void', resolve: (r) => r.expiresAt }),
  }),
});

builder.mutationFields((t) => ({
  createSubscriptionTicket: t.field({
    type: SubscriptionTicket,
    errors: {},
    authScopes: { read: true },
    description: 'Exchanges the bearer token of this request for a subscription ticket, so the token itself never goes in a URL',
    resolve: (_root, _args, ctx) => ctx.services.tickets.issue(ctx.identity),
  }),
}));
