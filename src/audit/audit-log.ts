import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { Identity } from '../auth/token.service';
import type { KeysetPage } from '../db/keyset';
import { queryRows } from '../db/rows';
import { BadRequestError } from '../errors';
import type { Logger } from '../logger';
import type { RequestOrigin } from '../net/request-origin';
import { maskInput } from './masking';

export interface Actor {
  kind: 'token' | 'admin-token' | 'legacy-ui' | 'webhook' | 'system';
  id: string | null;
  name: string | null;
}

export interface AuditEntry {
  actor: Actor;
  origin: RequestOrigin;
  operation: string;
  objectType?: string | null;
  objectId?: string | null;
  input?: unknown;
  /** ok, or the error's code. */
  outcome: string;
}

export interface AuditRow {
  id: number;
  at: Date;
  actorKind: string;
  actorId: string | null;
  actorName: string | null;
  door: string;
  operation: string;
  objectType: string | null;
  objectId: string | null;
  input: Record<string, unknown>;
  outcome: string;
  clientAddress: string | null;
  userAgent: string | null;
  prevHash: string;
  hash: string;
}

export interface AuditPage {
  items: AuditRow[];
  /** The `before` of the next page; null on the last. */
  next: number | null;
  total: () => Promise<number>;
}

export interface AuditFilter {
  /** An actor's id, name or kind. */
  actor?: string | null;
  objectType?: string | null;
  objectId?: string | null;
  operation?: string | null;
  since?: Date | null;
  until?: Date | null;
}

const COLUMNS = `id, at, actor_kind as "actorKind", actor_id as "actorId", actor_name as "actorName", door, operation,
  object_type as "objectType", object_id as "objectId", input, outcome, client_address as "clientAddress",
  user_agent as "userAgent", prev_hash as "prevHash", hash`;

/** Process-wide: each call takes its own connection. The database chains and guards the rows. */
export class AuditLog {
  /** Tokens whose first use this process has seen recorded. */
  private readonly usedTokens = new Set<number>();
  /** A token's first use, being recorded: what the same request records comes after it. */
  private readonly firstUses = new Map<number, Promise<void>>();
  private readonly tokenNames = new Map<number, string>();

  constructor(
    private readonly orm: MikroORM,
    private readonly log: Logger,
  ) {}

  private get em(): EntityManager {
    return this.orm.em.fork();
  }

  async record(entry: AuditEntry): Promise<void> {
    if (entry.actor.kind === 'token' && entry.operation !== 'firstTokenUse') await this.firstUses.get(Number(entry.actor.id));
    await queryRows(
      this.em,
      `insert into audit_events (actor_kind, actor_id, actor_name, door, operation, object_type, object_id, input, outcome, client_address, user_agent, prev_hash, hash)
       values ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11, '', '')`,
      [
        entry.actor.kind,
        entry.actor.id,
        entry.actor.name,
        entry.origin.door,
        entry.operation,
        entry.objectType ?? null,
        entry.objectId ?? null,
        JSON.stringify(maskInput(entry.input ?? {}) ?? {}),
        entry.outcome,
        entry.origin.clientAddress,
        entry.origin.userAgent?.slice(0, 300) ?? null,
      ],
    );
  }

  /** A token's name is looked up once per process. */
  async actorOf(identity: Identity): Promise<Actor> {
    if (identity.username === 'legacy-ui' && identity.tokenId === null) return { kind: 'legacy-ui', id: null, name: 'legacy-ui' };
    if (identity.tokenId === null) return { kind: 'admin-token', id: null, name: identity.username };
    let name = this.tokenNames.get(identity.tokenId);
    if (name === undefined) {
      const [row] = await queryRows<{ name: string }>(this.em, 'select name from api_tokens where id = $1', [identity.tokenId]);
      name = row?.name ?? identity.username;
      this.tokenNames.set(identity.tokenId, name);
    }
    return { kind: 'token', id: String(identity.tokenId), name };
  }

  // A record of its own, as reads are not recorded otherwise: one insert per token per process, and the
  // table's key makes it once per token across replicas.
  noteTokenUse(identity: Identity, origin: RequestOrigin): Promise<void> {
    const id = identity.tokenId;
    if (id === null || this.usedTokens.has(id)) return Promise.resolve();
    this.usedTokens.add(id);
    const noted = this.recordFirstUse(id, identity, origin).finally(() => this.firstUses.delete(id));
    this.firstUses.set(id, noted);
    return noted;
  }

  private async recordFirstUse(id: number, identity: Identity, origin: RequestOrigin): Promise<void> {
    try {
      const inserted = await queryRows(
        this.em,
        'insert into api_token_uses (token_id) values ($1) on conflict do nothing returning token_id',
        [id],
      );
      if (inserted.length === 0) return;
      await this.record({
        actor: await this.actorOf(identity),
        origin,
        operation: 'firstTokenUse',
        objectType: 'ApiToken',
        objectId: String(id),
        outcome: 'ok',
      });
    } catch (error) {
      this.usedTokens.delete(id);
      this.log.warn({ err: error, tokenId: id }, 'audit: could not record a token first use');
    }
  }

  async list(filter: AuditFilter, page: { before?: number; limit: number }): Promise<AuditRow[]> {
    const { where, params } = whereOf(filter);
    if (page.before !== undefined) {
      params.push(page.before);
      where.push(`id < $${params.length}`);
    }
    params.push(page.limit);
    const rows = await queryRows<AuditRow>(
      this.em,
      `select ${COLUMNS} from audit_events ${where.length ? `where ${where.join(' and ')}` : ''} order by id desc limit $${params.length}`,
      params,
    );
    return rows.map(withDate);
  }

  async page(filter: AuditFilter, limit: number, before: number | undefined, maxLimit: number): Promise<AuditPage> {
    if (!Number.isInteger(limit) || limit < 1 || limit > maxLimit) throw new BadRequestError(`first must be 1 to ${maxLimit}`, ['first']);
    for (const field of ['since', 'until'] as const) {
      const value = filter[field];
      if (value != null && Number.isNaN(value.getTime())) throw new BadRequestError(`${field} must be an ISO-8601 time`, [field]);
    }
    const items = await this.list(filter, { before, limit: limit + 1 });
    const page = items.slice(0, limit);
    return { items: page, next: items.length > limit ? page[page.length - 1].id : null, total: () => this.count(filter) };
  }

  /** A Relay connection's window: ascending, or descending when inverted. */
  async window(filter: AuditFilter, page: KeysetPage): Promise<AuditRow[]> {
    const { where, params } = whereOf(filter);
    const add = (sql: string, value: unknown) => {
      params.push(value);
      where.push(sql.replace('?', `$${params.length}`));
    };
    if (page.after !== undefined) add('id > ?', page.after);
    if (page.before !== undefined) add('id < ?', page.before);
    params.push(page.limit);
    const rows = await queryRows<AuditRow>(
      this.em,
      `select ${COLUMNS} from audit_events ${where.length ? `where ${where.join(' and ')}` : ''} order by id ${page.inverted ? 'desc' : 'asc'} limit $${params.length}`,
      params,
    );
    return rows.map(withDate);
  }

  async count(filter: AuditFilter): Promise<number> {
    const { where, params } = whereOf(filter);
    const [row] = await queryRows<{ n: string }>(
      this.em,
      `select count(*) as n from audit_events ${where.length ? `where ${where.join(' and ')}` : ''}`,
      params,
    );
    return Number(row.n);
  }

  async *export(filter: AuditFilter): AsyncGenerator<AuditRow> {
    let after = 0;
    for (;;) {
      const { where, params } = whereOf(filter);
      params.push(after);
      where.push(`id > $${params.length}`);
      const rows = await queryRows<AuditRow>(
        this.em,
        `select ${COLUMNS} from audit_events where ${where.join(' and ')} order by id limit 500`,
        params,
      );
      for (const row of rows) yield withDate(row);
      if (rows.length < 500) return;
      after = rows[rows.length - 1].id;
    }
  }

  async exportLines(filter: AuditFilter, max: number): Promise<string> {
    const lines: string[] = [];
    for await (const row of this.export(filter)) {
      if (lines.length >= max) break;
      lines.push(JSON.stringify(exportShape(row)));
    }
    return lines.length ? `${lines.join('\n')}\n` : '';
  }

  /** Through the database's one privileged path. */
  async prune(days: number): Promise<number> {
    if (days <= 0) return 0;
    const [row] = await queryRows<{ removed: number }>(this.em, `select audit_prune(now() - make_interval(days => $1)) as removed`, [days]);
    return row.removed;
  }
}

function whereOf(filter: AuditFilter): { where: string[]; params: unknown[] } {
  const where: string[] = [];
  const params: unknown[] = [];
  const add = (sql: (n: string) => string, value: unknown) => {
    params.push(value);
    where.push(sql(`$${params.length}`));
  };
  if (filter.actor) add((n) => `(actor_id = ${n} or actor_name = ${n} or actor_kind = ${n})`, filter.actor);
  if (filter.objectType) add((n) => `object_type = ${n}`, filter.objectType);
  if (filter.objectId) add((n) => `object_id = ${n}`, filter.objectId);
  if (filter.operation) add((n) => `operation = ${n}`, filter.operation);
  if (filter.since) add((n) => `at >= ${n}`, filter.since);
  if (filter.until) add((n) => `at < ${n}`, filter.until);
  return { where, params };
}

/** The ORM's pool reads timestamps as text. */
function withDate(row: AuditRow): AuditRow {
  return { ...row, at: new Date(row.at) };
}

/** The names REST answers with. */
function exportShape(row: AuditRow): Record<string, unknown> {
  return {
    id: row.id,
    at: row.at.toISOString(),
    actor_kind: row.actorKind,
    actor_id: row.actorId,
    actor_name: row.actorName,
    door: row.door,
    operation: row.operation,
    object_type: row.objectType,
    object_id: row.objectId,
    input: row.input,
    outcome: row.outcome,
    client_address: row.clientAddress,
    user_agent: row.userAgent,
    prev_hash: row.prevHash,
    hash: row.hash,
  };
}
