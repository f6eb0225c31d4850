import { Client } from 'pg';
import { latencies, percentiles } from '../lib/load';
import { sql, type BenchPostgres } from '../lib/postgres';
import { migrate, bulkTemplates } from '../lib/seed';
import { BENCH_TOKEN, startService } from '../lib/service';
import { round, type BenchOptions, type ScenarioResult } from '../lib/types';
import { searchWords } from '../../src/catalog/search-query';
import { fullTextStatement } from '../../src/catalog/search.service';

const SAMPLES = 100;
const TERMS = [
  { label: 'rare', term: 'zyxquartz' },
  { label: 'common', term: 'web' },
];

/**
 * Scenario 3: GET /search?q= over N templates (2 images each), one request at a time, for a
 * rare and a common term (ranked full text: every match is ranked before the first 100 return).
 * Baseline: the statement SearchService runs, on a session with index
 * and bitmap scans off (a sequential scan), beside the same statement with the indexes.
 */
export async function searchAtScale(pg: BenchPostgres, dataDir: string, options: BenchOptions): Promise<ScenarioResult[]> {
  const url = await pg.createDatabase('bench_search');
  await (await migrate(url)).close(true);
  await bulkTemplates(url, options.searchTemplates);
  // Registry search goes over the network (Docker Hub is seeded enabled): templates only here.
  await sql(url, 'update registries set enabled = false');
  const service = await startService({ dataDir, databaseUrl: url });
  const client = new Client({ connectionString: url });
  await client.connect();
  try {
    const results: ScenarioResult[] = [];
    for (const { label, term } of TERMS) {
      const http = await latencies(
        { url: `${service.url}/search?q=${term}`, headers: { authorization: `Bearer ${BENCH_TOKEN}` } },
        SAMPLES,
      );
      const statement = { text: fullTextStatement(searchWords(term), 100), values: [] };
      const indexed = await timeQuery(client, statement);
      await client.query('set enable_indexscan = off; set enable_bitmapscan = off');
      const scan = await timeQuery(client, statement);
      await client.query('reset enable_indexscan; reset enable_bitmapscan');
      const [{ count }] = (
        await client.query<{ count: number }>(
          `select count(*)::int as count from templates where search_vector @@ to_tsquery('english', $1)`,
          [searchWords(term)[0].tsquery],
        )
      ).rows;
      results.push({
        scenario: 3,
        name: `Search at ${options.searchTemplates.toLocaleString('en')} templates: ${label} term "${term}"`,
        figures: { matches: count, httpP50Ms: http.p50, httpP95Ms: http.p95, sqlP50Ms: indexed.p50, sqlP95Ms: indexed.p95 },
        baseline: { seqScanSqlP50Ms: scan.p50, seqScanSqlP95Ms: scan.p95 },
        ratio: round(indexed.p95 / scan.p95, 3),
        target: 'GET /search p95 ≤ 50 ms (ratio: indexed SQL p95 / sequential-scan SQL p95)',
        met: http.p95 <= 50,
      });
    }
    return results;
  } finally {
    await client.end();
    await service.stop();
  }
}

async function timeQuery(client: Client, statement: { text: string; values: unknown[] }): Promise<{ p50: number; p95: number }> {
  const samples: number[] = [];
  for (let i = 0; i < 5 + SAMPLES / 2; i++) {
    const started = performance.now();
    await client.query(statement);
    if (i >= 5) samples.push(performance.now() - started);
  }
  return percentiles(samples);
}
