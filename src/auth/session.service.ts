import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { queryRows } from '../db/rows';
import type { Scope } from './api-token.entity';
import { digestToken, expandScopes, type Identity } from './token.service';

export interface OpenedSession {
  /** Shown to the browser once, stored only as a digest. */
  secret: string;
  expiresAt: Date;
}

export interface SessionIdentity extends Identity {
  expiresAt: Date;
}

const SESSION_PREFIX = 'pcs_';

/** A session has its token's scopes while the token is not revoked; one opened with ADMIN_TOKEN is an admin's. */
export class ConsoleSessionService {
  constructor(
    private readonly em: EntityManager,
    private readonly ttlSeconds: number,
  ) {}

  async open(identity: Identity): Promise<OpenedSession> {
    const secret = SESSION_PREFIX + randomBytes(32).toString('base64url');
    const connection = this.em.getConnection();
    // Sessions nobody signed out of would pile up: each sign-in sweeps the expired ones.
    await connection.execute('delete from console_sessions where expires_at < now()');
    const [row] = await connection.execute<{ expires_at: Date }[]>(
      `insert into console_sessions (digest, token_id, username, email, created_at, expires_at)
       values (?, ?, ?, ?, now(), now() + make_interval(secs => ?)) returning expires_at`,
      [digestToken(secret), identity.tokenId, identity.username, identity.email, this.ttlSeconds],
    );
    return { secret, expiresAt: new Date(row.expires_at) };
  }

  /** With its token's scopes now; null when unknown, expired or revoked. */
  async identify(secret: string): Promise<SessionIdentity | null> {
    if (!secret.startsWith(SESSION_PREFIX)) return null;
    const [row] = await queryRows<{
      token_id: number | null;
      username: string;
      email: string | null;
      scopes: Scope[] | null;
      expires_at: Date;
    }>(
      this.em,
      `select s.token_id, s.username, s.email, t.scopes, s.expires_at
         from console_sessions s left join api_tokens t on t.id = s.token_id
        where s.digest = $1 and s.expires_at > now() and (s.token_id is null or t.revoked_at is null)`,
      [digestToken(secret)],
    );
    if (!row) return null;
    return {
      tokenId: row.token_id,
      username: row.username,
      email: row.email,
      scopes: expandScopes(row.scopes ?? ['admin']),
      expiresAt: new Date(row.expires_at),
    };
  }

  async close(secret: string): Promise<void> {
    await this.em.getConnection().execute('delete from console_sessions where digest = ?', [digestToken(secret)]);
  }
}

// Derived from the cookie, so a same-origin page (GET /console/session) can send it back in a header,
// and a forged cross-site request, which rides the cookie but cannot read it, cannot.
export function csrfTokenFor(secret: string): string {
  return createHash('sha256').update(`csrf:${secret}`).digest('base64url');
}

export function csrfMatches(secret: string, given: string): boolean {
  const expected = Buffer.from(csrfTokenFor(secret));
  const actual = Buffer.from(given);
  return expected.length === actual.length && timingSafeEqual(expected, actual);
}
