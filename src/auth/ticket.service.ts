import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { digestToken, type Identity } from './token.service';

export interface IssuedTicket {
  ticket: string;
  expiresAt: Date;
}

const TICKET_PREFIX = 'pst_';

// A token in a URL ends up in history, proxies and logs; a ticket is worth little there: it lives seconds,
// works once, only reads, and dies with the token that asked for it.
export class SubscriptionTicketService {
  constructor(
    private readonly em: EntityManager,
    private readonly ttlSeconds: number,
  ) {}

  async issue(identity: Identity): Promise<IssuedTicket> {
    const ticket = TICKET_PREFIX + randomBytes(32).toString('base64url');
    const connection = this.em.getConnection();
    // Unused tickets would pile up: each issue sweeps the expired ones (an indexed range).
    await connection.execute('delete from subscription_tickets where expires_at < now()');
    // The database's clock for issue and redeem alike, so replicas with skewed clocks agree.
    const [row] = await connection.execute<{ expires_at: Date }[]>(
      `insert into subscription_tickets (digest, token_id, username, email, expires_at)
       values (?, ?, ?, ?, now() + make_interval(secs => ?)) returning expires_at`,
      [digestToken(ticket), identity.tokenId, identity.username, identity.email, this.ttlSeconds],
    );
    return { ticket, expiresAt: new Date(row.expires_at) };
  }

  /** Deleted by the statement that reads it, so of two connections racing with one ticket only one gets it. */
  async redeem(ticket: string): Promise<Identity | null> {
    if (!ticket.startsWith(TICKET_PREFIX)) return null;
    const [row] = await this.em.getConnection().execute<{ token_id: number | null; username: string; email: string | null }[]>(
      `with used as (delete from subscription_tickets where digest = ? returning token_id, username, email, expires_at)
       select used.token_id, used.username, used.email from used left join api_tokens t on t.id = used.token_id
       where used.expires_at > now() and (used.token_id is null or t.revoked_at is null)`,
      [digestToken(ticket)],
    );
    if (!row) return null;
    return { tokenId: row.token_id, username: row.username, email: row.email, scopes: new Set(['read']) };
  }
}
