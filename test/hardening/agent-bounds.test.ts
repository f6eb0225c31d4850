import { createServer, type ServerResponse } from 'node:http';
import { EngineHttp } from '../../src/engines/docker-http';
import { startMisbehavingAgent } from '../agent/agent-harness';
import { startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';

const METADATA = JSON.stringify({ agent: { version: '9.9.9' }, adapter: { version: '1.0', type: 'fake' } });
// Long enough for the 4 MB cut on a loaded machine, short enough that the drip is not waited for long.
const TIMEOUT_MS = 3000;

/**
 * Writes `total` bytes of a JSON array as fast as the socket takes them, without holding them;
 * answers how many it had handed to the socket when the client closed the connection (all of
 * them if it never did). What the client held is at most that.
 */
function streamHuge(res: ServerResponse, total: number): Promise<number> {
  res.writeHead(200, { 'content-type': 'application/json' });
  const chunk = Buffer.alloc(64 * 1024, 0x20);
  let sent = 0;
  let closed = false;
  const pump = () => {
    while (sent < total && !closed) {
      sent += chunk.length;
      if (!res.write(chunk)) return void res.once('drain', pump);
    }
    res.end();
  };
  res.write('[');
  const done = new Promise<number>((resolve) =>
    res.on('close', () => {
      closed = true;
      resolve(sent);
    }),
  );
  pump();
  return done;
}

/**
 * An agent answering GET /deployments with a 200 MB body was read whole (RSS to 1.3 GB),
 * and one dripping a byte every 1.5 s kept the request open past every timeout, because undici's
 * headers and body timeouts bound the gaps, not the exchange. Real undici client, real TLS agent
 * server (the misbehaving agent of the harness stands in for a broken agent).
 */
describe('answers of agents are bounded in size and in time', () => {
  let t: TestApp;
  const timers: NodeJS.Timeout[] = [];
  /** Per request for deployments: bytes sent when the connection closed (huge), that it closed (drip). */
  const hugeSent: Promise<number>[] = [];
  const dripClosed: Promise<void>[] = [];
  let huge: Awaited<ReturnType<typeof startMisbehavingAgent>>;
  let drip: Awaited<ReturnType<typeof startMisbehavingAgent>>;

  beforeAll(async () => {
    t = await startTestApp({ AGENT_TIMEOUT_MS: String(TIMEOUT_MS), AGENT_MAX_RESPONSE_BYTES: String(4 * 1024 * 1024) });
    huge = await startMisbehavingAgent((req, res) => {
      if (req.url === '/metadata') return void res.writeHead(200, { 'content-type': 'application/json' }).end(METADATA);
      hugeSent.push(streamHuge(res, 200 * 1024 * 1024));
    });
    drip = await startMisbehavingAgent((req, res) => {
      if (req.url === '/metadata') return void res.writeHead(200, { 'content-type': 'application/json' }).end(METADATA);
      res.writeHead(200, { 'content-type': 'application/json' });
      // One byte well inside every gap the per-gap timeouts allow, forever.
      const timer = setInterval(() => res.write(' '), TIMEOUT_MS / 4);
      timers.push(timer);
      dripClosed.push(new Promise((resolve) => res.on('close', resolve)));
      res.on('close', () => clearInterval(timer));
    });
  });

  afterAll(async () => {
    timers.forEach(clearInterval);
    await t?.close();
    await huge?.close();
    await drip?.close();
  });

  async function addTarget(name: string, token: string): Promise<number> {
    const created = await t.request<Identified>('POST', '/deployment_targets', { body: { name, auth_blob: token } });
    expect(created.status).toBe(200);
    return created.body.id;
  }

  test('a 200 MB answer is cut at the limit: 502, and the rest is never read', async () => {
    const id = await addTarget('huge', huge.token);
    const res = await t.request('GET', `/deployment_targets/${id}/deployments`);
    expect(res.body).toEqual({
      code: 502,
      message: 'The agent of deployment target "huge" answered GET /deployments with more than 4194304 bytes.',
      fields: '',
    });
    // The client closed the connection after the limit (4 MB), give or take the socket buffers:
    // what it read, and so held, is bounded by what the agent could send by then (before, all 200 MB).
    expect(hugeSent).toHaveLength(1);
    expect(await hugeSent[0]).toBeLessThan(40 * 1024 * 1024);
  });

  test('an agent that drips bytes is cut at the deadline of the whole exchange: 504', async () => {
    const id = await addTarget('drip', drip.token);
    // Only the deadline ends this request: the drip never stops on its own (the test's timeout is the safety net).
    const res = await t.request('GET', `/deployment_targets/${id}/deployments`);
    expect(res.body).toEqual({
      code: 504,
      message: `The agent of deployment target "drip" at ${drip.url} did not finish answering within ${2 * TIMEOUT_MS} ms.`,
      fields: '',
    });
    // And the client gave the exchange up: the agent saw its connection close.
    expect(dripClosed).toHaveLength(1);
    await dripClosed[0];
  });
});

/**
 * The same bounds on the container engine's transport, against a local HTTP server standing in
 * for a broken engine over tcp:// (a real engine cannot be made to misbehave).
 */
describe('answers of the container engine are bounded in size and in time', () => {
  test('a huge answer is a 502 and a dripping one a 504 at the whole-exchange deadline', async () => {
    const timers: NodeJS.Timeout[] = [];
    const dripClosed: Promise<void>[] = [];
    const server = createServer((req, res) => {
      if (req.url?.startsWith('/huge')) return void streamHuge(res, 200 * 1024 * 1024);
      res.writeHead(200, { 'content-type': 'application/json' });
      const timer = setInterval(() => res.write(' '), 100);
      timers.push(timer);
      dripClosed.push(new Promise((resolve) => res.on('close', resolve)));
      res.on('close', () => clearInterval(timer));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const port = (server.address() as { port: number }).port;
    const engine = new EngineHttp({ host: `tcp://127.0.0.1:${port}`, timeoutMs: 500 });
    const patient = new EngineHttp({ host: `tcp://127.0.0.1:${port}`, timeoutMs: 20_000 });
    try {
      await expect(patient.request('GET', '/huge')).rejects.toMatchObject({
        httpStatus: 502,
        message: `container engine at tcp://127.0.0.1:${port} answered GET /huge with more than ${64 * 1024 * 1024} bytes`,
      });
      // Only the deadline ends the drip (the test's timeout is the safety net); the engine saw the client give up.
      await expect(engine.request('GET', '/drip')).rejects.toMatchObject({ httpStatus: 504 });
      expect(dripClosed).toHaveLength(1);
      await dripClosed[0];
    } finally {
      timers.forEach(clearInterval);
      await engine.close();
      await patient.close();
      server.closeAllConnections();
      server.close();
    }
  });
});
