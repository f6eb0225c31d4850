import { expect } from '@jest/globals';
import { randomBytes } from 'node:crypto';
import { encodeToken } from '../../src/agent/credentials';
import { createSelfSigned } from '../../src/agent/self-signed';
import { listenHttps, type Listening } from '../../src/agent/server';
import { startTestApp, type TestApp } from '../helpers/app';

const TARGETS = 6;

/**
 * The health round asks every target at once: one after another, a round over 500 targets took
 * 500 round trips, and the round at start could not open the connections before the first
 * fan-out query needed them. The stand-in agents here answer GET /metadata only once all of them
 * have been asked, so a round that asks one at a time never ends (the test's timeout fails it).
 */
let t: TestApp;
const agents: Listening[] = [];
const waiting: (() => void)[] = [];
let asked = 0;
/** Set for the round under test; registering a target asks its metadata too, answered at once. */
let barrier = false;

beforeAll(async () => {
  t = await startTestApp({ TARGET_HEALTH_INTERVAL_SECONDS: '0' });
  for (let n = 0; n < TARGETS; n++) {
    const { keyPem, certPem } = createSelfSigned('127.0.0.1', ['127.0.0.1'], 30);
    const password = randomBytes(12).toString('hex');
    const agent = await listenHttps(
      (req, res) => {
        const answer = () => {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end(JSON.stringify({ agent: { version: 'test' }, adapter: { version: 'test', type: 'memory' } }));
        };
        if (req.url !== '/metadata' || !barrier) return answer();
        waiting.push(answer);
        if (++asked % TARGETS === 0) for (const release of waiting.splice(0)) release();
      },
      { keyPem, certPem },
      '127.0.0.1',
      0,
    );
    agents.push(agent);
    const created = await t.graphql<{ createDeploymentTarget: { databaseId: number } }>(
      'mutation ($input: CreateDeploymentTargetInput!) { createDeploymentTarget(input: $input) { ... on DeploymentTarget { databaseId } } }',
      { input: { name: `agent-${n}`, authBlob: encodeToken(agent.url, `u${n}`, password, certPem) } },
    );
    expect(created.body.errors).toBeUndefined();
  }
}, 60_000);

afterAll(async () => {
  await t?.close();
  await Promise.all(agents.map((a) => a.close()));
});

test('a health round asks every target at once, and finds each reachable', async () => {
  barrier = true;
  await t.app.deps.automation.targetHealth.check();
  const rows: { reachable: boolean }[] = await t.app.orm.em
    .getConnection()
    .execute('select reachable from target_health order by target_id');
  expect(rows).toEqual(Array.from({ length: TARGETS }, () => ({ reachable: true })));
}, 30_000);
