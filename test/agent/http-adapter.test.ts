import { expect } from '@jest/globals';
import { agentRequest, startAgent, startFakeAdapter, type RunningAgent, type AgentDeploymentBody } from './agent-harness';

/**
 * The agent with its `http` adapter against a fake external adapter (protocol v1), which stands
 * for Kubernetes/Marathon/Fleet adapters that cannot run here. The agent, its HTTPS transport and
 * its PostgreSQL are real.
 */
const descriptor = {
  template: {
    id: 7,
    name: 'wordpress',
    description: 'blog',
    images: [
      {
        name: 'wp',
        source: 'wordpress:4',
        environment: [
          { variable: 'DB_PASSWORD', value: 'template' },
          { variable: 'WP_DEBUG', value: '0' },
        ],
        links: [{ service: 'db', alias: 'mysql' }],
        ports: [{ host_port: 8080, container_port: 80, proto: 'tcp' }],
        volumes: [{ host_path: '/srv/wp', container_path: '/var/www' }],
      },
      { name: 'db', source: 'mysql:5.7', environment: [{ variable: 'MYSQL_ROOT_PASSWORD', value: 'template' }] },
    ],
  },
  override: {
    images: [
      {
        name: 'wp',
        environment: [
          { variable: 'DB_PASSWORD', value: 'secret' },
          { variable: 'EXTRA', value: 'yes' },
        ],
        ports: [{ container_port: '80', host_port: '9090' }],
        deployment: { count: 3 },
      },
    ],
  },
};

describe('agent with the http adapter', () => {
  let fake: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;
  let failCreate = false;
  /** The service ids the next create is answered with (states the fake would not make itself). */
  let createIds: string[] | undefined;

  beforeAll(async () => {
    fake = await startFakeAdapter((call, res) => {
      if (createIds && call.method === 'POST') {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify(createIds.map((id) => ({ id, actualState: 'pending' }))));
        createIds = undefined;
        return true;
      }
      if (failCreate && call.method === 'POST') {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: 'cluster is full' }));
        return true;
      }
      if (call.path === '/v1/services/gone') {
        res.writeHead(404);
        res.end();
        return true;
      }
    });
    agent = await startAgent({ env: { ADAPTER_URL: fake.url } });
  });
  afterAll(async () => {
    await agent?.close();
    await fake?.close();
  });
  beforeEach(() => {
    fake.calls.length = 0;
    failCreate = false;
  });

  test('metadata reports the agent version and the adapter', async () => {
    const res = await agentRequest(agent, 'GET', '/metadata');
    expect(res.status).toBe(200);
    expect(res.body).toEqual({
      agent: { version: '0.1.0', features: ['redeploy_descriptor'] },
      adapter: { version: '0.2.0', type: 'Kubernetes' },
    });
  });

  test('deploy with an override, list, get, redeploy and delete', async () => {
    const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', { body: descriptor });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'wordpress',
      template: 7,
      service_ids: ['wp-svc-1', 'db-svc-2'],
      redeployable: true,
    });
    expect(fake.calls).toEqual([
      {
        method: 'POST',
        path: '/v1/services',
        body: [
          {
            name: 'wp',
            source: 'wordpress:4',
            categories: [],
            environment: [
              { variable: 'DB_PASSWORD', value: 'secret' },
              { variable: 'WP_DEBUG', value: '0' },
              { variable: 'EXTRA', value: 'yes' },
            ],
            links: [{ name: 'db', alias: 'mysql' }],
            expose: [],
            ports: [{ containerPort: 80, hostPort: 9090 }],
            volumes: [{ containerPath: '/var/www', hostPath: '/srv/wp' }],
            volumesFrom: [],
            volumes_from: [],
            deployment: { count: 3 },
          },
          {
            name: 'db',
            source: 'mysql:5.7',
            categories: [],
            environment: [{ variable: 'MYSQL_ROOT_PASSWORD', value: 'template' }],
            links: [],
            expose: [],
            ports: [],
            volumes: [],
            volumesFrom: [],
            volumes_from: [],
            deployment: { count: 1 },
          },
        ],
      },
    ]);
    const id = created.body.id;

    const list = await agentRequest<AgentDeploymentBody[]>(agent, 'GET', '/deployments');
    expect(list.status).toBe(200);
    expect(list.body).toEqual([{ id, name: 'wordpress', template: 7, service_ids: ['wp-svc-1', 'db-svc-2'], redeployable: true }]);

    const one = await agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${id}`);
    expect(one.status).toBe(200);
    expect(one.body).toEqual({
      id,
      name: 'wordpress',
      redeployable: true,
      status: {
        services: [
          { id: 'wp-svc-1', actualState: 'running 2/2' },
          { id: 'db-svc-2', actualState: 'running 2/2' },
        ],
      },
    });

    fake.calls.length = 0;
    const redeployed = await agentRequest<AgentDeploymentBody>(agent, 'POST', `/deployments/${id}/redeploy`);
    expect(redeployed.status).toBe(200);
    expect(redeployed.body).toEqual({ id, name: 'wordpress', template: 7, service_ids: ['wp-svc-3', 'db-svc-4'], redeployable: true });
    // The new services first (same merged template), then the old ones go.
    expect(fake.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'POST /v1/services',
      'DELETE /v1/services/wp-svc-1',
      'DELETE /v1/services/db-svc-2',
    ]);
    expect((fake.calls[0].body as { environment: unknown }[])[0].environment).toEqual([
      { variable: 'DB_PASSWORD', value: 'secret' },
      { variable: 'WP_DEBUG', value: '0' },
      { variable: 'EXTRA', value: 'yes' },
    ]);

    fake.calls.length = 0;
    const deleted = await agentRequest(agent, 'DELETE', `/deployments/${id}`);
    expect(deleted.status).toBe(204);
    expect(deleted.body).toBeUndefined();
    expect(fake.calls.map((call) => `${call.method} ${call.path}`)).toEqual([
      'DELETE /v1/services/wp-svc-3',
      'DELETE /v1/services/db-svc-4',
    ]);
    expect((await agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${id}`)).status).toBe(404);
    expect((await agentRequest<AgentDeploymentBody[]>(agent, 'GET', '/deployments')).body).toEqual([]);
  });

  /** A deployment whose adapter answered its create with `serviceIds`; deleted afterwards unless told. */
  async function withDeployment(serviceIds: string[], run: (id: number) => Promise<void>, cleanup = true): Promise<void> {
    createIds = serviceIds;
    const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', { body: descriptor });
    expect(created.body.service_ids).toEqual(serviceIds);
    fake.calls.length = 0;
    await run(created.body.id);
    if (cleanup) expect((await agentRequest(agent, 'DELETE', `/deployments/${created.body.id}`)).status).toBe(204);
  }

  test('status passes "not found" for services the adapter no longer knows; ids are URL-escaped', async () => {
    await withDeployment(['gone', 'a b/c'], async (id) => {
      const one = await agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${id}`);
      expect(one.body.status.services).toEqual([
        { id: 'gone', actualState: 'not found' },
        { id: 'a b/c', actualState: 'running 2/2' },
      ]);
      expect(fake.calls.map((call) => call.path)).toEqual(['/v1/services/gone', '/v1/services/a%20b%2Fc']);
    });
  });

  test('a redeploy whose new create fails keeps the old deployment (row and services)', async () => {
    const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', { body: descriptor });
    const id = created.body.id;
    failCreate = true;
    fake.calls.length = 0;
    const res = await agentRequest<AgentDeploymentBody>(agent, 'POST', `/deployments/${id}/redeploy`);
    expect(res.status).toBe(502);
    expect(res.body).toEqual({ code: 502, message: 'The adapter refused the deployment (HTTP 500): cluster is full', fields: '' });
    expect(fake.calls.map((call) => call.method)).toEqual(['POST']);
    const list = await agentRequest<AgentDeploymentBody[]>(agent, 'GET', '/deployments');
    expect(list.body).toEqual([{ id, name: 'wordpress', template: 7, service_ids: created.body.service_ids, redeployable: true }]);
    failCreate = false;
    expect((await agentRequest(agent, 'DELETE', `/deployments/${id}`)).status).toBe(204);
  });

  test('a failed create stores nothing', async () => {
    failCreate = true;
    const res = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', { body: descriptor });
    expect(res.status).toBe(502);
    expect((await agentRequest<AgentDeploymentBody[]>(agent, 'GET', '/deployments')).body).toEqual([]);
  });

  test('deleting a deployment whose services are already gone succeeds', async () => {
    await withDeployment(
      ['gone'],
      async (id) => {
        const res = await agentRequest(agent, 'DELETE', `/deployments/${id}`);
        expect(res.status).toBe(204);
      },
      false,
    );
  });
});

describe('agent with an unreachable or slow adapter', () => {
  test('adapter down: 502', async () => {
    const fake = await startFakeAdapter();
    const url = fake.url;
    await fake.close();
    const agent = await startAgent({ env: { ADAPTER_URL: url } });
    try {
      const res = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', { body: descriptor });
      expect(res.status).toBe(502);
      expect(res.body).toEqual({ code: 502, message: `The adapter at ${url} is unreachable (ECONNREFUSED).`, fields: '' });
      expect((await agentRequest(agent, 'GET', '/metadata')).status).toBe(502);
    } finally {
      await agent.close();
    }
  });

  test('adapter slow: 504', async () => {
    const fake = await startFakeAdapter(() => true); // never answers
    const agent = await startAgent({ env: { ADAPTER_URL: fake.url, ADAPTER_TIMEOUT_MS: '300' } });
    try {
      const res = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', { body: descriptor });
      expect(res.status).toBe(504);
      expect(res.body).toEqual({ code: 504, message: `The adapter at ${fake.url} did not answer within 300 ms.`, fields: '' });
      expect((await agentRequest<AgentDeploymentBody[]>(agent, 'GET', '/deployments')).body).toEqual([]);
    } finally {
      await agent.close();
      await fake.close();
    }
  });
});

/**
 * The original agents' peers as they are (reference/original-agent.md §4, §5, §7): panamaxcli's
 * create body, an adapter answering like the Go adapters (201 with `[{id}]` only, 404 for a
 * service it no longer has), and `redeployable` on every deployment. The adapter is a recording
 * test server standing for an external orchestrator.
 */
describe('interface B and the http adapter with the original peers', () => {
  let fake: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;

  beforeAll(async () => {
    let n = 0;
    fake = await startFakeAdapter((call, res) => {
      // pmxadapter answers a create with the ids only (no actualState), status 201.
      if (call.method === 'POST' && call.path === '/v1/services') {
        res.writeHead(201, { 'content-type': 'application/json' });
        res.end(JSON.stringify((call.body as { name: string }[]).map((s) => ({ id: `${s.name}.${++n}` }))));
        return true;
      }
      if (call.method === 'GET' && call.path.endsWith('.1')) {
        res.writeHead(404, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ error: 'no such service' }));
        return true;
      }
    });
    agent = await startAgent({ env: { ADAPTER_URL: fake.url } });
  });
  afterAll(async () => {
    await agent?.close();
    await fake?.close();
  });

  test("panamaxcli's create body (numbers as strings, volumes_from, an empty override) deploys; both volume keys reach the adapter", async () => {
    const created = await agentRequest<AgentDeploymentBody>(agent, 'POST', '/deployments', {
      body: {
        override: {},
        template: {
          name: 'pair',
          images: [
            {
              name: 'web',
              source: 'nginx:1',
              ports: [{ host_port: '8080', container_port: '80', proto: 'tcp' }],
              volumes_from: [{ service: 'data' }],
              deployment: { count: '2' },
            },
            { name: 'data', source: 'busybox', volumes: [{ container_path: '/data' }] },
          ],
        },
      },
    });
    expect(created.status).toBe(200);
    expect(created.body).toEqual({
      id: expect.any(Number),
      name: 'pair',
      template: null,
      service_ids: ['web.1', 'data.2'],
      redeployable: true,
    });
    const sent = fake.calls[0].body as Record<string, unknown>[];
    expect(sent[0]).toMatchObject({
      name: 'web',
      ports: [{ containerPort: 80, hostPort: 8080 }],
      volumesFrom: [{ name: 'data' }],
      volumes_from: [{ name: 'data' }],
      deployment: { count: 2 },
    });

    // A service the adapter answers 404 for is "not found", as the original agents said.
    const one = await agentRequest<AgentDeploymentBody>(agent, 'GET', `/deployments/${created.body.id}`);
    expect(one.body).toEqual({
      id: created.body.id,
      name: 'pair',
      redeployable: true,
      status: {
        services: [
          { id: 'web.1', actualState: 'not found' },
          { id: 'data.2', actualState: 'running 2/2' },
        ],
      },
    });
    expect((await agentRequest<AgentDeploymentBody[]>(agent, 'GET', '/deployments')).body).toEqual([created.body]);
    const redeployed = await agentRequest<AgentDeploymentBody>(agent, 'POST', `/deployments/${created.body.id}/redeploy`);
    expect(redeployed.body).toEqual({
      id: created.body.id,
      name: 'pair',
      template: null,
      service_ids: ['web.3', 'data.4'],
      redeployable: true,
    });
  });
});
