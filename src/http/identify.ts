import type { IncomingMessage } from 'node:http';
import { SubscriptionTicketService } from '../auth/ticket.service';
import { authenticateToken, type Identity } from '../auth/token.service';
import type { AppDeps } from '../context';
import { UnauthenticatedError } from '../errors';
import { identifySession } from './console-session';

/** A bearer token; without an Authorization header, the web console's session cookie. */
export async function authenticate(deps: AppDeps, req: IncomingMessage): Promise<Identity> {
  if (req.headers.authorization === undefined) {
    const session = await identifySession(deps, req);
    if (session) return session;
  }
  return identify(deps, req.headers.authorization);
}

/** EventSource cannot send headers, so a GET may bring a `?ticket=`, used up and hidden from yoga. */
export async function authenticateGraphQL(deps: AppDeps, req: IncomingMessage, url: URL): Promise<Identity> {
  const ticket = url.searchParams.get('ticket');
  if (req.headers.authorization !== undefined || req.method !== 'GET' || ticket === null) return authenticate(deps, req);
  url.searchParams.delete('ticket');
  return redeemTicket(deps, ticket);
}

/** The read-only caller behind a subscription ticket (an SSE GET's `?ticket=`, graphql-ws's connectionParams). */
export async function redeemTicket(deps: AppDeps, ticket: string): Promise<Identity> {
  const identity = await new SubscriptionTicketService(deps.orm.em.fork(), deps.config.subscriptionTicketTtlSeconds).redeem(ticket);
  if (!identity) throw new UnauthenticatedError('the subscription ticket is not valid (unknown, used or expired)');
  return identity;
}

export async function identify(deps: AppDeps, authorization: string | undefined): Promise<Identity> {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(authorization ?? '');
  if (!match) throw new UnauthenticatedError('a bearer token is required (Authorization: Bearer <token>)');
  // The root manager: the lookup only borrows a pooled connection, no entity enters an identity map.
  const identity = await authenticateToken(deps.orm.em, deps.config.adminToken, match[1]);
  if (!identity) throw new UnauthenticatedError('the bearer token is not valid');
  return identity;
}
