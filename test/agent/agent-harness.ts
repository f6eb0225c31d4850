import { mkdtemp, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { createServer as createHttpsServer } from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Adapter } from '../../src/agent/adapters/adapter';
import { createAgentApp, type AgentApp } from '../../src/agent/app';
import { parseAgentConfig, type AgentConfig } from '../../src/agent/config';
import { encodeToken } from '../../src/agent/credentials';
import { createSelfSigned } from '../../src/agent/self-signed';
import { listenHttps, type Listening } from '../../src/agent/server';
import { createLogger } from '../../src/logger';
import { createTestDatabase, type TestDatabase } from '../helpers/db';

export interface RunningAgent {
  app: AgentApp;
  url: string;
  dataDir: string;
  config: AgentConfig;
  token: string;
  /** `Basic …` header with the agent's current credentials. */
  auth: string;
  close(): Promise<void>;
}

/**
 * A real agent (createAgentApp behind node:https) on a free loopback port, with its own data dir
 * and database unless given. `env` is what the agent would read from the environment.
 */
export async function startAgent(
  options: {
    env?: Record<string, string>;
    adapter?: Adapter;
    dataDir?: string;
    database?: TestDatabase;
    /** Sees every request before the agent serves it (method and path are what tests count). */
    onRequest?: (req: IncomingMessage) => void;
  } = {},
): Promise<RunningAgent> {
  const dataDir = options.dataDir ?? (await mkdtemp(path.join(tmpdir(), 'agent-test-')));
  const database = options.database ?? (await createTestDatabase('agent'));
  const { app, config, listening } = await listenAgent(async (port) => {
    const config = parseAgentConfig({
      AGENT_PORT: String(port),
      AGENT_DATA_DIR: dataDir,
      DATABASE_URL: database.url,
      AGENT_ADAPTER: 'http',
      ADAPTER_URL: 'http://127.0.0.1:9',
      LOG_LEVEL: 'silent',
      ...options.env,
    });
    const app = await createAgentApp(config, {
      adapter: options.adapter,
      log: createLogger(process.env.TEST_LOG_LEVEL ?? 'silent', 'agent-test'),
    });
    return { app, config };
  }, options.onRequest);
  return {
    app,
    url: listening.url,
    dataDir,
    config,
    token: app.credentials.token,
    auth: `Basic ${Buffer.from(`${app.credentials.username}:${app.credentials.password}`).toString('base64')}`,
    async close() {
      await listening.close();
      await app.close();
      if (!options.database) await database.drop();
      if (!options.dataDir) await rm(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * Listens on a port the kernel picks, and only then builds the agent, whose public URL, certificate
 * and token name that port; the certificate is swapped in once it exists. Asking for a free port
 * and listening on it later raced: a socket opened in between (a connect()'s ephemeral port) could
 * take it, and CI failed with EADDRINUSE.
 */
async function listenAgent<T extends { app: AgentApp }>(
  build: (port: number) => Promise<T>,
  onRequest?: (req: IncomingMessage) => void,
): Promise<T & { listening: Listening }> {
  const serving: { app?: AgentApp } = {};
  const placeholder = createSelfSigned('127.0.0.1', ['127.0.0.1'], 1);
  const listening = await listenHttps(
    (req, res) => {
      onRequest?.(req);
      if (serving.app) serving.app.handler(req, res);
      else res.writeHead(503).end();
    },
    placeholder,
    '127.0.0.1',
    0,
  );
  let built: T;
  try {
    built = await build((listening.server.address() as AddressInfo).port);
  } catch (error) {
    await listening.close();
    throw error;
  }
  const { keyPem, certPem } = built.app.credentials;
  listening.server.setSecureContext({ key: keyPem, cert: certPem, minVersion: 'TLSv1.2' });
  serving.app = built.app;
  return { ...built, listening };
}

/** A deployment as the agent answers it (interface B), as far as the tests read it. */
export interface AgentDeploymentBody {
  id: number;
  name: string;
  service_ids: string[];
  status: { services: { id: string; actualState: string }[] };
}

export interface RecordedCall {
  method: string;
  path: string;
  body: unknown;
}

/**
 * Stands for an external orchestration adapter (Kubernetes, Marathon, Fleet), which cannot run
 * here: a plain HTTP server speaking adapter protocol v1 that records every call. `reply` decides
 * each answer; the default creates services `<name>-svc-<n>` and reports them "running".
 */
export async function startFakeAdapter(
  reply?: (call: RecordedCall, res: ServerResponse) => boolean | void,
): Promise<{ url: string; calls: RecordedCall[]; server: Server; close(): Promise<void> }> {
  const calls: RecordedCall[] = [];
  let created = 0;
  const server = createServer((req: IncomingMessage, res: ServerResponse) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => {
      const text = Buffer.concat(chunks).toString('utf8');
      const call: RecordedCall = { method: req.method ?? '', path: req.url ?? '', body: text ? (JSON.parse(text) as unknown) : undefined };
      calls.push(call);
      if (reply?.(call, res)) return;
      const json = (status: number, body?: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(body === undefined ? undefined : JSON.stringify(body));
      };
      if (call.method === 'GET' && call.path === '/v1/metadata')
        return json(200, { version: '0.2.0', type: 'Kubernetes', isHealthy: true });
      if (call.method === 'POST' && call.path === '/v1/services') {
        return json(
          201,
          (call.body as { name: string }[]).map((image) => ({ id: `${image.name}-svc-${++created}`, actualState: 'pending' })),
        );
      }
      if (call.method === 'GET' && call.path.startsWith('/v1/services/')) {
        return json(200, { id: decodeURIComponent(call.path.slice(13)), actualState: 'running 2/2' });
      }
      if (call.method === 'DELETE') return json(204);
      return json(404, { message: 'no such route' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    calls,
    server,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}

/** An https request to the agent trusting only its certificate. */
export async function agentRequest<T = unknown>(
  agent: RunningAgent,
  method: string,
  pathname: string,
  options: { body?: unknown; raw?: string; auth?: string | null } = {},
): Promise<{ status: number; body: T; headers: Record<string, string | string[] | undefined> }> {
  const { request } = await import('node:https');
  const payload = options.raw ?? (options.body === undefined ? undefined : JSON.stringify(options.body));
  const auth = options.auth === undefined ? agent.auth : options.auth;
  return new Promise((resolve, reject) => {
    const req = request(
      `${agent.url}${pathname}`,
      {
        method,
        ca: agent.app.credentials.certPem,
        headers: {
          ...(auth ? { authorization: auth } : {}),
          ...(payload === undefined ? {} : { 'content-type': 'application/json', 'content-length': Buffer.byteLength(payload) }),
        },
      },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          // The body as the caller declares it (what the agent sent, not checked here).
          resolve({ status: res.statusCode ?? 0, body: (text ? JSON.parse(text) : undefined) as T, headers: res.headers });
        });
      },
    );
    req.on('error', reject);
    if (payload !== undefined) req.write(payload);
    req.end();
  });
}

/** A real agent whose HTTPS server records every request it serves (method and path). */
export async function startCountingAgent(adapterUrl: string): Promise<RunningAgent & { requests: string[] }> {
  const requests: string[] = [];
  const agent = await startAgent({ env: { ADAPTER_URL: adapterUrl }, onRequest: (req) => requests.push(`${req.method} ${req.url}`) });
  return { ...agent, requests };
}

/**
 * An HTTPS server with its own self-signed certificate and a token for it, standing for an agent
 * that misbehaves (never answers, answers garbage, is slow): `handler` decides.
 */
export async function startMisbehavingAgent(handler: (req: IncomingMessage, res: ServerResponse) => void) {
  const tls = createSelfSigned('127.0.0.1', ['127.0.0.1', 'localhost'], 30);
  const server = createHttpsServer({ key: tls.keyPem, cert: tls.certPem }, handler);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const url = `https://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    server,
    token: encodeToken(url, 'user', 'pass', tls.certPem),
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
