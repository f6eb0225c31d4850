import { expect } from '@jest/globals';
import { encodeToken } from '../../src/agent/credentials';
import { AgentClient, type AgentTarget } from '../../src/targets/agent-client';
import { createAgentLoaders } from '../../src/targets/agent-loaders';
import { once } from 'node:events';
import { connect, createServer, type Socket } from 'node:net';
import { startAgent, startFakeAdapter, startMisbehavingAgent, type RunningAgent } from '../agent/agent-harness';

describe('AgentClient against a real agent', () => {
  let fake: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;
  let other: RunningAgent;
  // The service's own timeouts: a real agent on a loaded machine may take more than a second.
  const client = new AgentClient();

  beforeAll(async () => {
    fake = await startFakeAdapter();
    agent = await startAgent({ env: { ADAPTER_URL: fake.url } });
    other = await startAgent({ env: { ADAPTER_URL: fake.url } });
  });
  afterAll(async () => {
    await client.close();
    await agent?.close();
    await other?.close();
    await fake?.close();
  });

  const target = (token: string, name = 'prod'): AgentTarget => ({ id: name, name, authBlob: token });

  test('the pinned certificate and the token credentials work end to end', async () => {
    const prod = target(agent.token);
    expect(await client.metadata(prod)).toEqual({
      agent: { version: '0.1.0', features: ['redeploy_descriptor'] },
      adapter: { version: '0.2.0', type: 'Kubernetes' },
    });
    const created = await client.createDeployment(prod, { template: { name: 'blog', images: [{ name: 'web', source: 'nginx' }] } });
    expect(created).toEqual({ id: expect.any(Number), name: 'blog', template: null, service_ids: [expect.any(String)] });
    expect(await client.listDeployments(prod)).toEqual([created]);
    expect(await client.getDeployment(prod, created.id)).toEqual({
      id: created.id,
      name: 'blog',
      status: { services: [{ id: created.service_ids[0], actualState: 'running 2/2' }] },
    });
    const redeployed = await client.redeploy(prod, created.id);
    expect(redeployed.id).toBe(created.id);
    await client.deleteDeployment(prod, created.id);
    await expect(client.getDeployment(prod, created.id)).rejects.toMatchObject({
      httpStatus: 404,
      message: `Not found on deployment target "prod" (GET /deployments/${created.id}): deployment ${created.id} not found`,
    });
  });

  test('agent validation errors pass through as 422 with their fields', async () => {
    await expect(client.createDeployment(target(agent.token), { template: { images: [{}] } })).rejects.toMatchObject({
      httpStatus: 422,
      fields: ['template.images[0].name'],
      message: 'deployment target "prod" refused the request: The deployment descriptor is invalid: template.images[0].name is required.',
    });
  });

  test("another agent's certificate with this agent's URL: 502 naming the TLS problem", async () => {
    const { username, password } = agent.app.credentials;
    const forged = encodeToken(agent.config.publicUrl, username, password, other.app.credentials.certPem);
    await expect(client.metadata(target(forged, 'forged'))).rejects.toMatchObject({
      httpStatus: 502,
      message: expect.stringMatching(
        /^The agent of deployment target "forged" at https:\/\/127\.0\.0\.1:\d+ presented a TLS certificate that does not match the one in its token \(\w+\)\.$/,
      ),
    });
  });

  test('wrong password: 502 naming the target', async () => {
    const { username, certPem } = agent.app.credentials;
    const wrong = encodeToken(agent.config.publicUrl, username, 'not-the-password', certPem);
    await expect(client.listDeployments(target(wrong, 'stale'))).rejects.toMatchObject({
      httpStatus: 502,
      message: expect.stringMatching(
        /^The agent of deployment target "stale" rejected the credentials in its token \(HTTP 401(: .+)?\); the password may have been rotated\.$/,
      ),
    });
  });

  test('agent down: 502', async () => {
    const gone = await startMisbehavingAgent(() => undefined);
    await gone.close();
    await expect(client.metadata(target(gone.token, 'down'))).rejects.toMatchObject({
      httpStatus: 502,
      message: `The agent of deployment target "down" at ${gone.url} refused the connection: is it running?`,
    });
  });

  test('a call made while open() opens the connection waits for it: one TLS connection, where two calls at once open two', async () => {
    const proxy = await countingProxy(new URL(agent.config.publicUrl).port);
    const { username, password, certPem } = agent.app.credentials;
    const viaProxy = (name: string) => target(encodeToken(proxy.url, username, password, certPem), name);
    const fresh = new AgentClient();
    try {
      const [, deployments] = await Promise.all([fresh.open([viaProxy('opened')]), fresh.listDeployments(viaProxy('opened'))]);
      expect(deployments).toEqual(expect.any(Array));
      expect(proxy.connections()).toBe(1);
      await Promise.all([fresh.metadata(viaProxy('plain')), fresh.listDeployments(viaProxy('plain'))]);
      expect(proxy.connections()).toBe(3);
    } finally {
      await fresh.close();
      await proxy.close();
    }
  });

  test('a call waiting for a connection that cannot be opened fails as its own call would', async () => {
    const gone = await startMisbehavingAgent(() => undefined);
    await gone.close();
    const fresh = new AgentClient();
    try {
      const down = target(gone.token, 'down');
      const [, listed] = await Promise.allSettled([fresh.open([down]), fresh.listDeployments(down)]);
      expect(listed).toMatchObject({
        status: 'rejected',
        reason: { httpStatus: 502, message: `The agent of deployment target "down" at ${gone.url} refused the connection: is it running?` },
      });
    } finally {
      await fresh.close();
    }
  });

  test('agent slow: 504', async () => {
    const slow = await startMisbehavingAgent(() => undefined); // accepts, never answers
    const hasty = new AgentClient({ connectTimeoutMs: 2000, headersTimeoutMs: 500, bodyTimeoutMs: 500 });
    try {
      await expect(hasty.metadata(target(slow.token, 'slow'))).rejects.toMatchObject({
        httpStatus: 504,
        message: `The agent of deployment target "slow" at ${slow.url} did not answer within 500 ms.`,
      });
    } finally {
      await hasty.close();
      await slow.close();
    }
  });

  test('a delete may take as long as a deploy: the orchestrator removes what it runs (a cluster waits for pods to stop)', async () => {
    // Answers a delete only after twice the headers timeout.
    const deliberate = await startMisbehavingAgent((req, res) => {
      setTimeout(() => res.writeHead(204).end(), 1000);
    });
    const patient = new AgentClient({ connectTimeoutMs: 2000, headersTimeoutMs: 500, bodyTimeoutMs: 500, deployTimeoutMs: 30_000 });
    try {
      await expect(patient.deleteDeployment(target(deliberate.token, 'deliberate'), 1)).resolves.toBeUndefined();
    } finally {
      await patient.close();
      await deliberate.close();
    }
  });

  test('agent answering garbage: 502', async () => {
    const bodies = ['<html>oops</html>', JSON.stringify({ agent: 'x' }), JSON.stringify([{ id: 'one' }])];
    const garbage = await startMisbehavingAgent((req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(bodies.shift());
    });
    try {
      const g = target(garbage.token, 'garbage');
      await expect(client.metadata(g)).rejects.toMatchObject({
        httpStatus: 502,
        message: 'The agent of deployment target "garbage" answered GET /metadata with a body that is not JSON.',
      });
      await expect(client.metadata(g)).rejects.toMatchObject({
        httpStatus: 502,
        message: expect.stringMatching(
          /^The agent of deployment target "garbage" answered GET \/metadata with an unexpected body \(agent: /,
        ),
      });
      await expect(client.listDeployments(g)).rejects.toMatchObject({
        httpStatus: 502,
        message: expect.stringContaining('unexpected body (0.id:'),
      });
    } finally {
      await garbage.close();
    }
  });
});

describe('agent loaders', () => {
  test('N targets: one request per target and key, in parallel; a failing target yields its own Error', async () => {
    const counts = new Map<string, number>();
    let inFlight = 0;
    let maxInFlight = 0;
    const held: (() => void)[] = [];
    let safetyNet: NodeJS.Timeout | undefined;
    let gaveUp = false;
    const servers = await Promise.all(
      [0, 1, 2, 3].map((n) =>
        startMisbehavingAgent((req, res) => {
          const key = `${n} ${req.method} ${req.url}`;
          counts.set(key, (counts.get(key) ?? 0) + 1);
          inFlight++;
          maxInFlight = Math.max(maxInFlight, inFlight);
          // Every request is held until all seven are in flight at once (in parallel, then).
          const answer = () => {
            inFlight--;
            if (n === 3) {
              res.writeHead(500, { 'content-type': 'application/json' });
              res.end(JSON.stringify({ code: 500, message: 'Unexpected error.', fields: '' }));
              return;
            }
            res.writeHead(200, { 'content-type': 'application/json' });
            if (req.url === '/deployments') res.end(JSON.stringify([{ id: n, name: `d${n}`, template: null, service_ids: ['s'] }]));
            else res.end(JSON.stringify({ id: Number(req.url!.split('/')[2]), name: 'x', status: { services: [] } }));
          };
          held.push(answer);
          if (inFlight === 7 || gaveUp) held.splice(0).forEach((release) => release());
          // A safety net, not a clock the test reads: a client that sent them one after another
          // is answered after it, and fails on maxInFlight below instead of hanging.
          else
            safetyNet ??= setTimeout(() => {
              gaveUp = true;
              held.splice(0).forEach((release) => release());
            }, 20_000);
        }),
      ),
    );
    const targets: AgentTarget[] = servers.map((server, n) => ({ id: n, name: `t${n}`, authBlob: server.token }));
    // Patient enough to outwait the safety net above: held requests are the point here.
    const client = new AgentClient({ headersTimeoutMs: 40_000 });
    try {
      const loaders = createAgentLoaders(client, targets);
      const ids = ['0', '1', '2', '3', '0', '1', '2', '3'];
      const [lists, details] = await Promise.all([
        loaders.deployments.loadMany(ids),
        Promise.all([
          loaders.deployment.load(['0', '5']),
          loaders.deployment.load(['0', '5']),
          loaders.deployment.load(['1', '5']),
          loaders.deployment.load(['0', '6']),
        ]),
      ]);
      expect(lists.slice(0, 3)).toEqual([0, 1, 2].map((n) => [{ id: n, name: `d${n}`, template: null, service_ids: ['s'] }]));
      expect(lists[3]).toBeInstanceOf(Error);
      expect((lists[3] as Error).message).toBe(
        'The agent of deployment target "t3" answered GET /deployments with HTTP 500: Unexpected error.',
      );
      expect(details.map((detail) => detail.id)).toEqual([5, 5, 5, 6]);
      expect(Object.fromEntries(counts)).toEqual({
        '0 GET /deployments': 1,
        '1 GET /deployments': 1,
        '2 GET /deployments': 1,
        '3 GET /deployments': 1,
        '0 GET /deployments/5': 1,
        '1 GET /deployments/5': 1,
        '0 GET /deployments/6': 1,
      });
      expect(maxInFlight).toBe(7);
      await expect(loaders.deployments.load('99')).rejects.toMatchObject({ httpStatus: 404 });
    } finally {
      clearTimeout(safetyNet);
      await client.close();
      await Promise.all(servers.map((server) => server.close()));
    }
  });
});

/** Forwards to the agent's port and counts the connections made through it. */
async function countingProxy(port: string): Promise<{ url: string; connections: () => number; close: () => Promise<void> }> {
  let connections = 0;
  const sockets = new Set<Socket>();
  const server = createServer((inbound) => {
    connections++;
    const outbound = connect(Number(port), '127.0.0.1');
    for (const socket of [inbound, outbound]) {
      sockets.add(socket);
      socket.on('error', () => undefined).on('close', () => sockets.delete(socket));
    }
    inbound.pipe(outbound).pipe(inbound);
  }).listen(0, '127.0.0.1');
  await once(server, 'listening');
  return {
    url: `https://127.0.0.1:${(server.address() as { port: number }).port}`,
    connections: () => connections,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise((resolve) => server.close(resolve));
    },
  };
}
