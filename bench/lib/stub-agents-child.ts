import { randomBytes } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { encodeToken } from '../../src/agent/credentials';
import { createSelfSigned } from '../../src/agent/self-signed';
import { listenHttps, type Listening } from '../../src/agent/server';

/**
 * Scenario 14's agents: `count` stand-ins for the agent in this one process, each on its own
 * port with its own self-signed certificate and Basic-auth pair, answering interface B's reads
 * the fan-out makes (GET /metadata, GET /deployments[?include=status], GET /deployments/{id})
 * from memory after `latencyMs`: one deployment of two running services each. The real agent
 * keeps a PostgreSQL database per agent, which 500 agents on one machine cannot; what the curve
 * measures is the service's fan-out, so the agents' own work is kept to TLS, auth and JSON.
 * Driven over IPC (bench/lib/ipc.ts); counts every request by method and path shape.
 */
export interface StubAgentsStart {
  count: number;
  latencyMs: number;
}
export interface StubAgentsStarted {
  tokens: string[];
}

const running: Listening[] = [];
let counts: Record<string, number>[] = [];

const deployment = (n: number) => ({ id: 1, name: `bench-${n}`, template: null, service_ids: [`d${n}-web`, `d${n}-db`] });
const status = (n: number) => ({ services: [`d${n}-web`, `d${n}-db`].map((id) => ({ id, actualState: 'running' })) });

function answer(res: ServerResponse, statusCode: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(statusCode, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

async function start({ count, latencyMs }: StubAgentsStart): Promise<StubAgentsStarted> {
  const tokens: string[] = [];
  for (let n = running.length; n < count; n++) {
    const { keyPem, certPem } = createSelfSigned('127.0.0.1', ['localhost', '127.0.0.1'], 30);
    const username = `agent-${n}`;
    const password = randomBytes(18).toString('base64url');
    const expected = `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`;
    counts[n] = {};
    const handler = (req: IncomingMessage, res: ServerResponse) => {
      const shape = `${req.method} ${(req.url ?? '').replace(/\/\d+/g, '/{id}')}`;
      counts[n][shape] = (counts[n][shape] ?? 0) + 1;
      req.resume();
      const reply = () => {
        if (req.headers.authorization !== expected) return answer(res, 401, { code: 401, message: 'Missing or wrong credentials.' });
        if (req.url === '/metadata')
          return answer(res, 200, { agent: { version: 'bench' }, adapter: { version: 'bench', type: 'memory' } });
        if (req.url === '/deployments?include=status') return answer(res, 200, [{ ...deployment(n), status: status(n) }]);
        if (req.url === '/deployments') return answer(res, 200, [deployment(n)]);
        if (req.url === '/deployments/1') return answer(res, 200, { id: 1, name: `bench-${n}`, status: status(n) });
        return answer(res, 404, { code: 404, message: 'not found', fields: '' });
      };
      if (latencyMs > 0) setTimeout(reply, latencyMs);
      else reply();
    };
    const listening = await listenHttps(handler, { keyPem, certPem }, '127.0.0.1', 0);
    running.push(listening);
    tokens.push(encodeToken(listening.url, username, password, certPem));
  }
  return { tokens };
}

process.on('message', (message: { id: number; op: string; args?: unknown }) => {
  const ops: Record<string, () => Promise<unknown>> = {
    start: () => start(message.args as StubAgentsStart),
    counts: () => Promise.resolve(counts),
    reset: () => {
      counts = counts.map(() => ({}));
      return Promise.resolve();
    },
    stop: async () => {
      await Promise.all(running.map((l) => l.close()));
      setImmediate(() => process.exit(0));
    },
  };
  ops[message.op]().then(
    (result) => process.send!({ id: message.id, result }),
    (error: unknown) => process.send!({ id: message.id, error: String(error instanceof Error ? error.stack : error) }),
  );
});
process.on('SIGTERM', () => void Promise.all(running.map((l) => l.close())).finally(() => process.exit(0)));
