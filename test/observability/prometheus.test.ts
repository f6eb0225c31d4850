import { expect } from '@jest/globals';
import { readFileSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { freePort } from '../../src/net/free-port';
import { startFakeAdapter } from '../agent/agent-harness';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { makeGitRepo, pmx } from '../helpers/git';
import { startAgentProcess, startServiceProcess, waitUntil, type AgentProcess, type ServiceProcess } from '../helpers/processes';
import { describePrometheus, startPrometheus, type Prometheus, type PromSample } from '../helpers/prometheus';

const ADMIN = 'prometheus-test-admin-token-0123456789';

/** The PromQL examples of the README's "Operating it": they must run and answer. */
function readmeQueries(): string[] {
  const readme = readFileSync(path.resolve(__dirname, '../../README.md'), 'utf8');
  return [...readme.matchAll(/```promql\n([\s\S]*?)\n```/g)].map((m) => m[1].trim());
}

/**
 * Debian's prometheus scrapes the service (METRICS_PORT) and an agent (AGENT_METRICS_PORT), each
 * its own process as in production; after traffic its HTTP API answers the expected series and
 * the README's three queries.
 */
describePrometheus('metrics scraped by a real Prometheus', () => {
  let serviceDb: TestDatabase;
  let agentDb: TestDatabase;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let service: ServiceProcess;
  let agent: AgentProcess;
  let prometheus: Prometheus;
  let repoDir: string;

  beforeAll(async () => {
    [serviceDb, agentDb] = await Promise.all([createTestDatabase('prom'), createTestDatabase('prom_agent')]);
    adapter = await startFakeAdapter();
    const [serviceMetrics, agentMetrics] = [await freePort(), await freePort()];
    [service, agent] = await Promise.all([
      startServiceProcess({
        DATABASE_URL: serviceDb.url,
        ADMIN_TOKEN: ADMIN,
        TEMPLATE_REPO_ROOTS: os.tmpdir(),
        METRICS_PORT: String(serviceMetrics),
      }),
      startAgentProcess({
        AGENT_ADAPTER: 'http',
        ADAPTER_URL: adapter.url,
        DATABASE_URL: agentDb.url,
        AGENT_METRICS_PORT: String(agentMetrics),
      }),
    ]);
    prometheus = await startPrometheus({
      platform: [`127.0.0.1:${serviceMetrics}`],
      'platform-agent': [`127.0.0.1:${agentMetrics}`],
    });
    repoDir = makeGitRepo({ 'scraped.pmx': pmx('Scraped') });
  }, 180_000);

  afterAll(async () => {
    await prometheus?.close();
    await service?.close();
    await agent?.close();
    await adapter?.close();
    await Promise.all([serviceDb?.drop(), agentDb?.drop()]);
    if (repoDir) rmSync(repoDir, { recursive: true, force: true });
  }, 120_000);

  async function call<T>(method: string, pathname: string, body?: unknown): Promise<{ status: number; body: T }> {
    const res = await request(`${service.url}${pathname}`, {
      method: method as 'GET',
      headers: { authorization: `Bearer ${ADMIN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
  }

  /** The query's samples once `ready` holds for them (scrapes come every second). */
  async function until(promql: string, ready: (samples: PromSample[]) => boolean): Promise<PromSample[]> {
    let samples: PromSample[] = [];
    await waitUntil(
      async () => ready((samples = await prometheus.query(promql))),
      `prometheus: ${promql} answered ${JSON.stringify(samples)}`,
      90_000,
    );
    return samples;
  }

  const value = (samples: PromSample[], labels: Record<string, string>) =>
    samples.find((s) => Object.entries(labels).every(([k, v]) => s.metric[k] === v))?.value;

  test('after traffic: request, operation, SQL, agent and adapter series of both jobs, and the README queries', async () => {
    await prometheus.targetsUp(['platform', 'platform-agent']);
    expect((await call('POST', '/template_repos', { name: repoDir })).status).toBe(200);
    const [template] = (await call<{ id: number }[]>('GET', '/templates')).body;
    const target = await call<{ id: number }>('POST', '/deployment_targets', { name: 'scraped', auth_blob: agent.token });
    expect(target.status).toBe(200);
    const deployments = `/deployment_targets/${target.body.id}/deployments`;
    const first = await call<{ id: number }>('POST', deployments, { template_id: template.id });
    expect(first.status).toBe(200);
    // A counter is only counted up by increase() once Prometheus saw it before: one deploy, a
    // scrape that has it, then a redeploy.
    const created = `agent_client_request_duration_seconds_count{job="platform",operation="create_deployment",outcome="ok"}`;
    await until(created, (s) => s.length === 1 && s[0].value === 1);
    await until(
      'http_server_request_duration_seconds_count{job="platform",method="POST",route="/deployment_targets/:targetId/deployments"}',
      (s) => s.length === 1,
    );
    expect((await call('POST', `${deployments}/${first.body.id}/redeploy`)).status).toBe(200);
    expect((await call('POST', deployments, { template_id: template.id })).status).toBe(200);
    // And calls the agent fails (an unknown deployment): one, a scrape, another, for a rate.
    expect((await call('GET', `${deployments}/999999`)).status).toBe(404);
    await until('agent_client_request_duration_seconds_count{job="platform",outcome="NOT_FOUND"}', (s) => s.length === 1);
    expect((await call('GET', `${deployments}/999998`)).status).toBe(404);
    await call('GET', '/templates/424242');

    const requests = await until(
      'http_server_request_duration_seconds_count{job="platform",route=~"/templates.*|/deployment_targets/:targetId/deployments"}',
      (s) => s.length >= 3,
    );
    expect({
      list: value(requests, { method: 'GET', route: '/templates', status: '200' }),
      missing: value(requests, { method: 'GET', route: '/templates/:id', status: '404' }),
      deploy: value(requests, { method: 'POST', route: '/deployment_targets/:targetId/deployments', status: '200' }),
    }).toEqual({ list: 1, missing: 1, deploy: 2 });

    const agentCalls = await until(`agent_client_request_duration_seconds_count{job="platform",target="${target.body.id}"}`, (s) =>
      s.some((x) => x.metric.outcome === 'NOT_FOUND' && x.value === 2),
    );
    // The target's token was checked before it had an id: that call counts under `new`, never its URL.
    expect(await prometheus.query('agent_client_request_duration_seconds_count{job="platform",operation="metadata"}')).toEqual([
      { metric: expect.objectContaining({ target: 'new', outcome: 'ok' }), value: 1 },
    ]);
    expect({
      create: value(agentCalls, { operation: 'create_deployment', outcome: 'ok' }),
      redeploy: value(agentCalls, { operation: 'redeploy', outcome: 'ok' }),
      unknown: value(agentCalls, { operation: 'get_deployment', outcome: 'NOT_FOUND' }),
    }).toEqual({ create: 2, redeploy: 1, unknown: 2 });

    // The agent's own work: its requests by route, its adapter calls, its SQL.
    const agentSide = await until(
      '{job="platform-agent",__name__=~"http_server_request_duration_seconds_count|agent_adapter_call_duration_seconds_count"}',
      (s) => s.some((x) => x.metric.call === 'remove'),
    );
    // The redeploy made the new generation (create) and then removed the old one (remove).
    const adapterCall = (call: string) =>
      value(agentSide, { __name__: 'agent_adapter_call_duration_seconds_count', adapter: 'http', call, outcome: 'ok' });
    expect({
      deploy: value(agentSide, {
        __name__: 'http_server_request_duration_seconds_count',
        method: 'POST',
        route: '/deployments',
        status: '200',
      }),
      redeploy: value(agentSide, {
        __name__: 'http_server_request_duration_seconds_count',
        method: 'POST',
        route: '/deployments/:id/redeploy',
      }),
      create: adapterCall('create'),
      remove: adapterCall('remove'),
    }).toEqual({ deploy: 2, redeploy: 1, create: 3, remove: 1 });
    for (const job of ['platform', 'platform-agent']) {
      const sql = await prometheus.query(`sum(db_client_operation_duration_seconds_count{job="${job}"})`);
      expect([job, sql[0]?.value > 0]).toEqual([job, true]);
      const lag = await prometheus.query(`nodejs_eventloop_lag_p99_seconds{job="${job}"}`);
      expect([job, lag.length]).toEqual([job, 1]);
    }

    // The README's three queries, as written there.
    const [p95, errorRate, deploysPerHour] = readmeQueries();
    expect(readmeQueries()).toHaveLength(3);
    // A rate needs two samples that differ: the second deploy came after a scrape saw the first.
    const deployRoute = { route: '/deployment_targets/:targetId/deployments' };
    const latencies = await until(p95, (s) => (value(s, deployRoute) ?? 0) > 0);
    expect(value(latencies, deployRoute)).toBeLessThan(120);
    const errors = await until(errorRate, (s) => (value(s, { target: String(target.body.id) }) ?? 0) > 0);
    expect(value(errors, { target: String(target.body.id) })).toBeLessThan(1);
    const deploys = await until(deploysPerHour, (s) => s.length === 1 && s[0].value > 0);
    expect(deploys[0].value).toBeGreaterThan(0);
  }, 240_000);
});
