import { deepStrictEqual } from 'node:assert';
import { request } from 'undici';
import { z } from 'zod';
import { freePort } from '../../src/net/free-port';
import { interleaved, type Throughput } from '../lib/load';
import { operationText, operationWithFragments } from '../lib/operations';
import type { BenchPostgres } from '../lib/postgres';
import { rssMb, startTs, waitForHealthz } from '../lib/processes';
import { issueReadToken, migrate, seedTemplates } from '../lib/seed';
import { startService } from '../lib/service';
import { round, type BenchOptions, type ScenarioResult } from '../lib/types';

export interface RestOutcome {
  results: ScenarioResult[];
  /** RSS (MB) of the service and of the floor server after the load: scenario 4 reports them. */
  serviceRssMb: number;
  floorRssMb: number;
}

/** Each endpoint is measured in this many interleaved runs of duration / ROUNDS seconds (lib/load.ts). */
const ROUNDS = 3;

/**
 * Scenario 1: GET /templates (100 × 3 images) and GET /templates/{id} through the REST route,
 * the same operation text through POST /graphql, and the node:http + pg floor; REST and
 * GraphQL-over-HTTP are each compared with the floor. Each in its own
 * process; autocannon runs here. All three are sent an issued read token, as clients send, and
 * each looks it up (the floor with one plain indexed select).
 */
export async function restVsGraphqlVsFloor(pg: BenchPostgres, dataDir: string, options: BenchOptions): Promise<RestOutcome> {
  const url = await pg.createDatabase('bench_rest');
  const orm = await migrate(url);
  const ids = await seedTemplates(orm, 100, 3);
  const token = await issueReadToken(orm);
  await orm.close(true);
  const service = await startService({ dataDir, databaseUrl: url });
  const floorPort = await freePort();
  const floor = startTs('bench/lib/floor-server.ts', { DATABASE_URL: url, PORT: String(floorPort) });
  const floorUrl = `http://127.0.0.1:${floorPort}`;
  try {
    await waitForHealthz(floorUrl, floor);
    const auth = { authorization: `Bearer ${token}` };
    const gql = (operation: string, variables: Record<string, unknown>, query = operationText(operation)) => ({
      url: `${service.url}/graphql`,
      method: 'POST' as const,
      headers: { ...auth, 'content-type': 'application/json' },
      body: JSON.stringify({ query, operationName: operation, variables }),
    });
    const id = ids[Math.floor(ids.length / 2)];
    const cases = [
      {
        label: 'GET /templates',
        rest: `${service.url}/templates`,
        // A GraphQL client asks for the whole list at once; the REST route reads it a page at a time.
        graphql: gql('ListAllTemplates', {}, operationWithFragments('query ListAllTemplates { templates { ...TemplateBody } }')),
        field: 'templates',
        floor: `${floorUrl}/templates`,
      },
      {
        label: 'GET /templates/{id}',
        rest: `${service.url}/templates/${id}`,
        graphql: gql('GetTemplate', { id }),
        field: 'template',
        floor: `${floorUrl}/templates/${id}`,
      },
    ];
    const results: ScenarioResult[] = [];
    const seconds = Math.max(1, Math.round(options.duration / ROUNDS));
    const method = `${ROUNDS} interleaved runs of ${seconds} s per endpoint (order reversed every other run), ${options.connections} connections, one warm-up each`;
    for (const c of cases) {
      await sameBody(c.rest, auth, c.graphql, c.field, c.floor);
      const {
        rest,
        graphql,
        floor: floorRun,
      } = await interleaved(
        { rest: { url: c.rest, headers: auth }, graphql: c.graphql, floor: { url: c.floor, headers: auth } },
        { duration: options.duration, connections: options.connections, rounds: ROUNDS },
      );
      // REST and GraphQL-over-HTTP have the same floor target; each row shows the other's req/s too.
      results.push(
        compare(`REST vs floor (node:http + pg): ${c.label}`, rest, floorRun, 0.8, 'REST req/s ≥ 0.8× floor req/s', method),
        compare(
          `GraphQL-over-HTTP vs floor (node:http + pg): ${c.label}`,
          graphql,
          floorRun,
          0.7,
          'GraphQL-over-HTTP req/s ≥ 0.7× floor req/s',
          method,
        ),
      );
    }
    return { results, serviceRssMb: round(rssMb(service.child.pid)), floorRssMb: round(rssMb(floor.pid)) };
  } finally {
    await floor.stop();
    await service.stop();
  }
}

function compare(name: string, subject: Throughput, baseline: Throughput, minimum: number, target: string, method: string): ScenarioResult {
  const ratio = round(subject.rps / baseline.rps, 2);
  const clean = subject.errors === 0 && baseline.errors === 0;
  return {
    scenario: 1,
    name,
    figures: { rps: subject.rps, p50Ms: subject.p50, p99Ms: subject.p99, errors: subject.errors },
    baseline: { rps: baseline.rps, p50Ms: baseline.p50, p99Ms: baseline.p99, errors: baseline.errors },
    ratio,
    target,
    met: clean && ratio >= minimum,
    note: clean ? method : `${method}; requests failed during the run`,
  };
}

const GraphqlAnswer = z.object({ data: z.record(z.string(), z.unknown()).nullish(), errors: z.unknown().optional() });

/** The three answers must be the same JSON, or the comparison means nothing. */
async function sameBody(
  restUrl: string,
  auth: Record<string, string>,
  graphql: { url: string; headers: Record<string, string>; body: string },
  field: string,
  floorUrl: string,
): Promise<void> {
  const json = async (res: Awaited<ReturnType<typeof request>>) => {
    if (res.statusCode !== 200) throw new Error(`HTTP ${res.statusCode}: ${await res.body.text()}`);
    return res.body.json();
  };
  const rest = await json(await request(restUrl, { headers: auth }));
  const viaGraphql = await json(await request(graphql.url, { method: 'POST', headers: graphql.headers, body: graphql.body }));
  const floor = await json(await request(floorUrl, { headers: auth }));
  const answer = GraphqlAnswer.parse(viaGraphql);
  if (!answer.data) throw new Error(`POST /graphql failed: ${JSON.stringify(answer.errors)}`);
  deepStrictEqual(answer.data[field], rest, 'POST /graphql and the REST route answer different data');
  deepStrictEqual(floor, rest, 'the floor server and the REST route answer different JSON');
}
