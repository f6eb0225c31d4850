import { queryRows } from '../db/rows';
import { createHash, randomBytes, timingSafeEqual } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { findPage, type KeysetPage } from '../db/keyset';
import { NotFoundError, ValidationError } from '../errors';
import { ApiToken, SCOPES, type Scope } from './api-token.entity';
import type { RequestOrigin } from '../net/request-origin';

export interface Identity {
  tokenId: number | null;
  username: string;
  email: string | null;
  scopes: ReadonlySet<Scope>;
  /** Set by the listener, for the audit log. */
  origin?: RequestOrigin;
}

export interface IssuedToken {
  id: number;
  name: string;
  token: string;
  scopes: Scope[];
}

const TOKEN_PREFIX = 'plt_';

export function digestToken(token: string): string {
  return createHash('sha256').update(token).digest('hex');
}

export function generateToken(): string {
  return TOKEN_PREFIX + randomBytes(32).toString('base64url');
}

/** Every scope implies the ones before it: admin can deploy, deploy can write, write can read. */
export function expandScopes(scopes: readonly Scope[]): Set<Scope> {
  const top = Math.max(...scopes.map((s) => SCOPES.indexOf(s)));
  return new Set(SCOPES.slice(0, top + 1));
}

export class TokenService {
  constructor(
    private readonly em: EntityManager,
    private readonly adminToken?: string,
  ) {}

  /** ADMIN_TOKEN is compared in constant time. */
  authenticate(token: string): Promise<Identity | null> {
    return authenticateToken(this.em, this.adminToken, token);
  }

  async issue(input: { name: string; username?: string | null; email?: string | null; scopes: Scope[] }): Promise<IssuedToken> {
    if (!input.name.trim()) throw new ValidationError('name must not be blank', ['name']);
    if (input.scopes.length === 0) throw new ValidationError('at least one scope is required', ['scopes']);
    const token = generateToken();
    const row = this.em.create(ApiToken, {
      name: input.name.trim(),
      username: input.username?.trim() || input.name.trim(),
      email: input.email ?? null,
      digest: digestToken(token),
      scopes: input.scopes,
      revokedAt: null,
    });
    await this.em.flush();
    return { id: row.id, name: row.name, token, scopes: row.scopes };
  }

  async list(): Promise<ApiToken[]> {
    return this.em.find(ApiToken, {}, { orderBy: { id: 'asc' } });
  }

  page(window: KeysetPage): Promise<ApiToken[]> {
    return findPage(this.em, ApiToken, window);
  }

  count(): Promise<number> {
    return this.em.count(ApiToken);
  }

  async get(id: number): Promise<ApiToken> {
    const row = await this.em.findOne(ApiToken, { id });
    if (!row) throw NotFoundError.of('token', id);
    return row;
  }

  async revoke(id: number): Promise<ApiToken> {
    const row = await this.em.findOne(ApiToken, { id });
    if (!row) throw NotFoundError.of('token', id);
    row.revokedAt ??= new Date();
    await this.em.flush();
    return row;
  }

  async hasActiveAdmin(): Promise<boolean> {
    const rows = await this.em.find(ApiToken, { revokedAt: null }, { fields: ['scopes'] });
    return rows.some((row) => row.scopes.includes('admin'));
  }
}

/**
 * The caller behind a bearer token, read on every request (a revoked token is refused on the next
 * one). A row read through the pool, no managed entity: `em` may be the ORM's root manager, so a
 * request pays no fork for it (bench/RESULTS.md, scenario 1).
 */
export async function authenticateToken(em: EntityManager, adminToken: string | undefined, token: string): Promise<Identity | null> {
  // One hash per request serves both the constant-time ADMIN_TOKEN comparison and the row lookup.
  const digest = createHash('sha256').update(token).digest();
  if (adminToken && timingSafeEqual(digest, adminDigestOf(adminToken))) {
    return { tokenId: null, username: 'admin', email: null, scopes: expandScopes(['admin']) };
  }
  if (!token.startsWith(TOKEN_PREFIX)) return null;
  const [row] = await queryRows<{ id: number; username: string; email: string | null; scopes: Scope[] }>(
    em,
    'select id, username, email, scopes from api_tokens where digest = $1 and revoked_at is null',
    [digest.toString('hex')],
  );
  if (!row) return null;
  return { tokenId: row.id, username: row.username, email: row.email, scopes: expandScopes(row.scopes) };
}

let adminDigest: { token: string; digest: Buffer } | undefined;

/** ADMIN_TOKEN's digest, made once rather than on every request. */
function adminDigestOf(adminToken: string): Buffer {
  if (adminDigest?.token !== adminToken) adminDigest = { token: adminToken, digest: createHash('sha256').update(adminToken).digest() };
  return adminDigest.digest;
}
