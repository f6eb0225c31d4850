import { Gauge } from 'prom-client';
import { dbQueries, registry } from './metrics';

/** knex under MikroORM: its query events and its tarn pool. */
interface KnexLike {
  on(event: string, listener: (...args: unknown[]) => void): unknown;
  removeListener(event: string, listener: (...args: unknown[]) => void): unknown;
  client: { pool?: PoolLike | null; config?: { pool?: { max?: number } } };
}

interface PoolLike {
  numUsed(): number;
  numFree(): number;
  numPendingAcquires(): number;
}

interface QueryEvent {
  __knexQueryUid?: string;
  sql?: string;
}

const pools = new Set<KnexLike>();

const sum = (read: (pool: PoolLike) => number) => {
  let total = 0;
  for (const knex of pools) {
    // A closed ORM's knex has no pool any more: forget it.
    if (!knex.client.pool) pools.delete(knex);
    else total += read(knex.client.pool);
  }
  return total;
};

new Gauge({
  name: 'db_client_connections',
  help: 'Connections of the database pool, by state: used (lent to a query or transaction) or idle.',
  labelNames: ['state'] as const,
  registers: [registry],
  collect() {
    this.set(
      { state: 'used' },
      sum((pool) => pool.numUsed()),
    );
    this.set(
      { state: 'idle' },
      sum((pool) => pool.numFree()),
    );
  },
});

new Gauge({
  name: 'db_client_connections_pending_requests',
  help: 'Requests waiting for a connection of the database pool.',
  registers: [registry],
  collect() {
    this.set(sum((pool) => pool.numPendingAcquires()));
  },
});

new Gauge({
  name: 'db_client_connections_max',
  help: 'The largest size of the database pool.',
  registers: [registry],
  collect() {
    let max = 0;
    for (const knex of pools) if (knex.client.pool) max += knex.client.config?.pool?.max ?? 0;
    this.set(max);
  },
});

const STATEMENTS = new Set(['select', 'insert', 'update', 'delete', 'begin', 'commit', 'rollback', 'savepoint', 'release', 'with']);

/** A statement's kind by its first word: a fixed set, never the text. */
function statementKind(sql: string | undefined): string {
  const word = /^\s*([a-z]+)/i.exec(sql ?? '')?.[1]?.toLowerCase() ?? '';
  return STATEMENTS.has(word) ? word : 'other';
}

export function observeDatabase(knex: KnexLike): () => void {
  const started = new Map<string, { at: bigint; kind: string }>();
  const onQuery = (...args: unknown[]) => {
    const query = args[0] as QueryEvent;
    if (query.__knexQueryUid) started.set(query.__knexQueryUid, { at: process.hrtime.bigint(), kind: statementKind(query.sql) });
  };
  const finish = (query: QueryEvent | undefined, outcome: string) => {
    const uid = query?.__knexQueryUid;
    const start = uid ? started.get(uid) : undefined;
    if (!uid || !start) return;
    started.delete(uid);
    dbQueries.observe({ operation: start.kind, outcome }, Number(process.hrtime.bigint() - start.at) / 1e9);
  };
  // knex hands (response, query) and (error, query).
  const onResponse = (...args: unknown[]) => finish(args[1] as QueryEvent, 'ok');
  const onError = (...args: unknown[]) => finish(args[1] as QueryEvent, 'error');
  knex.on('query', onQuery);
  knex.on('query-response', onResponse);
  knex.on('query-error', onError);
  pools.add(knex);
  return () => {
    knex.removeListener('query', onQuery);
    knex.removeListener('query-response', onResponse);
    knex.removeListener('query-error', onError);
    pools.delete(knex);
  };
}
