import { expect } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { request } from 'undici';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { describeDocker, testDockerClient, testDockerHost, TEST_IMAGE } from '../helpers/docker';
import { makeGitRepo } from '../helpers/git';
import { startOtlpReceiver, type OtlpReceiver, type ReceivedSpan } from '../helpers/otlp-receiver';
import { startAgentProcess, startServiceProcess, waitUntil, type AgentProcess, type ServiceProcess } from '../helpers/processes';

const ADMIN = 'traces-test-admin-token-0123456789';
const SERVER = 2;
const CLIENT = 3;

/**
 * One trace follows a deploy from the REST door through the GraphQL operation, SQL and the agent
 * call into the agent, its adapter and the engine calls the adapter made. The main service and the
 * agent run as their own processes (tracing must start before they load what it instruments),
 * exporting over OTLP/HTTP to a receiver this test runs; the agent drives the real Docker engine.
 */
describeDocker('traces: a deploy from the REST door to the engine', () => {
  let receiver: OtlpReceiver;
  let serviceDb: TestDatabase;
  let agentDb: TestDatabase;
  let agent: AgentProcess;
  let service: ServiceProcess;
  let repoDir: string;
  // What the deploy made, removed here too should the test fail before its DELETE.
  const containers: string[] = [];

  beforeAll(async () => {
    receiver = await startOtlpReceiver();
    [serviceDb, agentDb] = await Promise.all([createTestDatabase('traces'), createTestDatabase('traces_agent')]);
    const otel = { OTEL_EXPORTER_OTLP_ENDPOINT: receiver.url, OTEL_BSP_SCHEDULE_DELAY: '100' };
    [agent, service] = await Promise.all([
      startAgentProcess({
        AGENT_ADAPTER: 'docker',
        DOCKER_HOST: testDockerHost(),
        DATABASE_URL: agentDb.url,
        AGENT_STOP_TIMEOUT_SECONDS: '1',
        ...otel,
      }),
      startServiceProcess({
        DATABASE_URL: serviceDb.url,
        ADMIN_TOKEN: ADMIN,
        TEMPLATE_REPO_ROOTS: os.tmpdir(),
        LOG_LEVEL: 'info',
        ...otel,
      }),
    ]);
    repoDir = makeGitRepo({
      'traced.pmx': [
        'name: traced',
        'description: one container',
        'type: Default',
        'images:',
        '  - name: web',
        `    source: ${TEST_IMAGE}`,
        '    command: sleep 3600',
        '',
      ].join('\n'),
    });
  }, 180_000);

  afterAll(async () => {
    await service?.close();
    await agent?.close();
    const docker = testDockerClient();
    for (const name of containers) await docker.removeContainer(name, { force: true }).catch(() => undefined);
    await docker.close();
    await Promise.all([serviceDb?.drop(), agentDb?.drop()]);
    await receiver?.close();
    if (repoDir) rmSync(repoDir, { recursive: true, force: true });
  }, 120_000);

  async function call<T>(method: string, path: string, body?: unknown): Promise<{ status: number; body: T; requestId: string }> {
    const res = await request(`${service.url}${path}`, {
      method: method as 'GET',
      headers: { authorization: `Bearer ${ADMIN}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const text = await res.body.text();
    return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T, requestId: String(res.headers['x-request-id']) };
  }

  test('service → agent → adapter → engine, in one trace; the log line carries its trace id', async () => {
    expect((await call('POST', '/template_repos', { name: repoDir })).status).toBe(200);
    const [template] = (await call<{ id: number }[]>('GET', '/templates')).body;
    const target = await call<{ id: number }>('POST', '/deployment_targets', { name: 'traced', auth_blob: agent.token });
    expect(target.status).toBe(200);
    const deployed = await call<{ id: number; status: { services: { id: string }[] } }>(
      'POST',
      `/deployment_targets/${target.body.id}/deployments`,
      { template_id: template.id },
    );
    expect(deployed.status).toBe(200);
    containers.push(...deployed.body.status.services.map((s) => s.id));
    expect(deployed.requestId).toMatch(/^[0-9a-f-]{36}$/);

    // The service's span for the deploy request, then the whole trace once the agent's engine
    // spans have arrived (each process exports in its own batches).
    const root = () =>
      receiver.spans.find(
        (s) => s.service === 'platform' && s.kind === SERVER && s.name === 'POST /deployment_targets/:targetId/deployments',
      );
    await waitUntil(() => Promise.resolve(root() !== undefined), 'the service exported the deploy request span', 30_000);
    const traceId = root()!.traceId;
    const trace = () => receiver.spans.filter((s) => s.traceId === traceId);
    await waitUntil(
      () => Promise.resolve(trace().some((s) => s.service === 'platform-agent' && s.name === 'engine POST /containers/{id}/start')),
      'the agent exported its engine spans into the same trace',
      30_000,
    );

    const spans = trace();
    const byId = new Map(spans.map((s) => [s.spanId, s]));
    const chain = ['POST /deployment_targets/:targetId/deployments', 'graphql mutation CreateDeployment', 'agent create_deployment'];
    const agentChain = ['POST /deployments', 'adapter docker create', 'engine POST /containers/create'];
    const named = new Set([...chain, ...agentChain]);
    /** The span's nearest ancestor among the named ones, as `service: name`. */
    const ancestor = (span: ReceivedSpan): string | null => {
      for (let at = span.parentSpanId && byId.get(span.parentSpanId); at; at = at.parentSpanId && byId.get(at.parentSpanId)) {
        if (named.has(at.name)) return `${at.service}: ${at.name}`;
      }
      return null;
    };
    const first = (service: string, name: string) => spans.find((s) => s.service === service && s.name === name);
    const tree = [...chain.map((n) => ['platform', n]), ...agentChain.map((n) => ['platform-agent', n])].map(([svc, name]) => {
      const span = first(svc, name);
      return { span: `${svc}: ${name}`, parent: span ? ancestor(span) : 'missing' };
    });
    expect(tree).toEqual([
      { span: 'platform: POST /deployment_targets/:targetId/deployments', parent: null },
      { span: 'platform: graphql mutation CreateDeployment', parent: 'platform: POST /deployment_targets/:targetId/deployments' },
      { span: 'platform: agent create_deployment', parent: 'platform: graphql mutation CreateDeployment' },
      { span: 'platform-agent: POST /deployments', parent: 'platform: agent create_deployment' },
      { span: 'platform-agent: adapter docker create', parent: 'platform-agent: POST /deployments' },
      { span: 'platform-agent: engine POST /containers/create', parent: 'platform-agent: adapter docker create' },
    ]);

    // The agent continued the trace from the traceparent of the service's HTTP client span.
    const agentServer = first('platform-agent', 'POST /deployments')!;
    const caller = byId.get(agentServer.parentSpanId!)!;
    expect({ service: caller.service, kind: caller.kind, method: caller.attributes['http.request.method'] }).toEqual({
      service: 'platform',
      kind: CLIENT,
      method: 'POST',
    });
    // The SQL of both sides is in the trace (pg's spans), and the resolvers (graphql's).
    const kinds = (service: string) =>
      new Set(spans.filter((s) => s.service === service).map((s) => (s.attributes['db.system.name'] as string) ?? s.name.split(' ')[0]));
    expect([...kinds('platform')].filter((k) => ['postgresql', 'graphql.resolve'].includes(k)).sort()).toEqual([
      'graphql.resolve',
      'postgresql',
    ]);
    expect(kinds('platform-agent').has('postgresql')).toBe(true);
    // Every span of the service and the agent came as OTLP JSON.
    expect([...receiver.contentTypes]).toEqual(['application/json']);

    // The request's log line carries its request id and the trace id.
    const line = service
      .output()
      .split('\n')
      .filter((l) => l.includes(deployed.requestId))
      .map((l) => JSON.parse(l) as Record<string, unknown>)[0];
    expect(line).toEqual(
      expect.objectContaining({ msg: 'request', method: 'POST', status: 200, requestId: deployed.requestId, trace_id: traceId }),
    );

    const removed = await call('DELETE', `/deployment_targets/${target.body.id}/deployments/${deployed.body.id}`);
    expect(removed.status).toBe(204);
  }, 180_000);

  test('the GraphQL door: the request, its operation and its SQL in one trace', async () => {
    const res = await request(`${service.url}/graphql`, {
      method: 'POST',
      headers: { authorization: `Bearer ${ADMIN}`, 'content-type': 'application/json' },
      body: JSON.stringify({ query: 'query Registries { registries { name } }' }),
    });
    expect(res.statusCode).toBe(200);
    await res.body.dump();
    const operation = () => receiver.spans.find((s) => s.service === 'platform' && s.name === 'graphql query Registries');
    await waitUntil(() => Promise.resolve(operation() !== undefined), 'the operation span', 30_000);
    const { traceId, parentSpanId, spanId } = operation()!;
    const trace = receiver.spans.filter((s) => s.traceId === traceId);
    expect(trace.find((s) => s.spanId === parentSpanId)).toEqual(expect.objectContaining({ name: 'POST /graphql', kind: SERVER }));
    const byId = new Map(trace.map((s) => [s.spanId, s]));
    const under = (span: ReceivedSpan, ancestor: string): boolean => {
      for (let at = span.parentSpanId; at; at = byId.get(at)?.parentSpanId) if (at === ancestor) return true;
      return false;
    };
    expect(trace.some((s) => s.attributes['db.system.name'] === 'postgresql' && under(s, spanId))).toBe(true);
  });

  test('without OTEL_EXPORTER_OTLP_ENDPOINT the SDK is never loaded', () => {
    // Everything `npm start` loads, in a process of its own, with and without the setting.
    const script =
      "require('./src/observability/trace-main'); require('./src/app'); require('./src/http/server');" +
      'process.stdout.write(String(Object.keys(require.cache).filter((f) => /@opentelemetry[\\/](sdk-node|instrumentation-)/.test(f)).length > 0))';
    const loaded = (env: Record<string, string>) =>
      spawnSync(process.execPath, ['--require', 'tsx/cjs', '-e', script], {
        cwd: path.resolve(__dirname, '../..'),
        env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: '', ...env },
        encoding: 'utf8',
      }).stdout;
    expect(loaded({})).toBe('false');
    expect(loaded({ OTEL_EXPORTER_OTLP_ENDPOINT: 'http://127.0.0.1:9' })).toBe('true');
  }, 60_000);

  test('a caller’s own x-request-id comes back; one that is not a plain token is replaced', async () => {
    const mine = await request(`${service.url}/healthz`, { headers: { 'x-request-id': 'client-chosen.42' } });
    await mine.body.dump();
    expect(mine.headers['x-request-id']).toBe('client-chosen.42');
    const odd = await request(`${service.url}/healthz`, { headers: { 'x-request-id': 'has spaces & more' } });
    await odd.body.dump();
    expect(odd.headers['x-request-id']).toMatch(/^[0-9a-f-]{36}$/);
  });
});
