import { Client } from 'pg';

export interface ChainProblem {
  id: number;
  /** edited: its hash does not match its contents; broken: its prev_hash is not the row before's (one was removed). */
  kind: 'edited' | 'broken';
  message: string;
}

export interface ChainReport {
  rows: number;
  problems: ChainProblem[];
}

const GENESIS = '0'.repeat(64);

// Hashes are recomputed with the insert's own function (audit_event_digest); the chain starts at the genesis
// hash, or at the hash retention's last pruning left behind.
export async function verifyAuditChain(databaseUrl: string): Promise<ChainReport> {
  const client = new Client({ connectionString: databaseUrl, application_name: 'platform-audit-verify' });
  client.on('error', () => undefined); // a lost session fails the query in progress or the next
  await client.connect();
  try {
    await client.query('begin isolation level repeatable read read only');
    const anchor = await client.query<{ last_hash: string }>('select last_hash from audit_prunes order by id desc limit 1');
    let previous = anchor.rows[0]?.last_hash ?? GENESIS;
    const problems: ChainProblem[] = [];
    let rows = 0;
    let after = 0;
    for (;;) {
      const page = await client.query<{ id: number; prev_hash: string; hash: string; expected: string }>(
        'select e.id, e.prev_hash, e.hash, audit_event_digest(e.prev_hash, e) as expected from audit_events e where e.id > $1 order by e.id limit 1000',
        [after],
      );
      for (const row of page.rows) {
        rows++;
        if (row.prev_hash !== previous) {
          problems.push({
            id: row.id,
            kind: 'broken',
            message: `record ${row.id} follows a record that is not there (removed, or the chain was rewritten)`,
          });
        }
        if (row.hash !== row.expected) {
          problems.push({ id: row.id, kind: 'edited', message: `record ${row.id} was changed after it was written` });
        }
        previous = row.hash;
        after = row.id;
      }
      if (page.rows.length < 1000) break;
    }
    await client.query('commit');
    return { rows, problems };
  } finally {
    await client.end();
  }
}
