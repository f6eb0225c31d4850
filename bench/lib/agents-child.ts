import { mkdtempSync, rmSync } from 'node:fs';
import { request } from 'node:https';
import { tmpdir } from 'node:os';
import path from 'node:path';
import type { Adapter } from '../../src/agent/adapters/adapter';
import { createAgentApp, type AgentApp } from '../../src/agent/app';
import { parseAgentConfig } from '../../src/agent/config';
import { encodeToken } from '../../src/agent/credentials';
import { listenHttps, type Listening } from '../../src/agent/server';
import { createLogger } from '../../src/logger';

/**
 * Scenario 2's agents, all in this one process (the service under test runs in another): real
 * agents (HTTPS, Basic auth, PostgreSQL each) whose handler waits `latencyMs` before answering,
 * and counts every request by method and path shape. The orchestrator is an in-memory adapter:
 * what is measured is the fan-out, not an orchestrator. Driven over IPC by bench/scenarios.
 */
export interface AgentsStart {
  databaseUrls: string[];
  latencyMs: number;
  /** The real docker adapter instead of memory (scenario 5). */ docker?: boolean;
  /** The real kubernetes adapter on this cluster and namespace instead (scenario 18). */
  kubernetes?: { kubeconfig: string; namespace: string };
}
export interface AgentsStarted {
  tokens: string[];
}
export type Counts = Record<string, number>[];

const memoryAdapter = (): Adapter => ({
  type: 'http',
  metadata: () => Promise.resolve({ version: 'bench', type: 'memory' }),
  create: (key, template) => Promise.resolve(template.images.map((image) => `${key}-${image.name}`)),
  status: (ids) => Promise.resolve(ids.map((id) => ({ id, actualState: 'running' }))),
  remove: () => Promise.resolve(),
  close: () => Promise.resolve(),
});

const running: { app: AgentApp; listening: Listening; dir: string }[] = [];
let counts: Counts = [];

async function start({ databaseUrls, latencyMs, docker, kubernetes }: AgentsStart): Promise<AgentsStarted> {
  const real = docker || kubernetes !== undefined;
  for (const [i, databaseUrl] of databaseUrls.entries()) {
    const dir = mkdtempSync(path.join(tmpdir(), 'bench-agent-'));
    const config = parseAgentConfig({
      AGENT_PORT: '0',
      AGENT_DATA_DIR: dir,
      DATABASE_URL: databaseUrl,
      AGENT_ADAPTER: kubernetes ? 'kubernetes' : docker ? 'docker' : 'http',
      ADAPTER_URL: 'http://127.0.0.1:9',
      LOG_LEVEL: 'silent',
      ...(kubernetes
        ? {
            AGENT_KUBECONFIG: kubernetes.kubeconfig,
            AGENT_KUBERNETES_NAMESPACE: kubernetes.namespace,
            // The test cluster's kubelet runs pods on the local engine, which has the image.
            AGENT_KUBERNETES_IMAGE_PULL_POLICY: 'Never',
          }
        : {}),
    });
    const app = await createAgentApp(config, { adapter: real ? undefined : memoryAdapter(), log: createLogger('silent') });
    counts[i] = {};
    const delayed = (req: Parameters<AgentApp['handler']>[0], res: Parameters<AgentApp['handler']>[1]) => {
      const shape = `${req.method} ${(req.url ?? '').replace(/\/\d+/g, '/{id}')}`;
      counts[i][shape] = (counts[i][shape] ?? 0) + 1;
      if (latencyMs > 0) setTimeout(() => app.handler(req, res), latencyMs);
      else app.handler(req, res);
    };
    const listening = await listenHttps(delayed, app.credentials, '127.0.0.1', 0);
    running.push({ app, listening, dir });
  }
  // The agent's own token names port 0 (it was built before listening): encode the bound URL.
  return { tokens: running.map(({ app: { credentials: c }, listening }) => encodeToken(listening.url, c.username, c.password, c.certPem)) };
}

/** One deployment on every agent (two services), made through interface B. */
async function deployOnEach(): Promise<void> {
  await Promise.all(
    running.map(
      ({ app, listening }) =>
        new Promise<void>((resolve, reject) => {
          const body = JSON.stringify({
            template: {
              name: 'bench',
              images: [
                { name: 'web', source: 'example/web' },
                { name: 'db', source: 'example/db' },
              ],
            },
          });
          const auth = Buffer.from(`${app.credentials.username}:${app.credentials.password}`).toString('base64');
          const req = request(
            `${listening.url}/deployments`,
            {
              method: 'POST',
              ca: app.credentials.certPem,
              headers: { authorization: `Basic ${auth}`, 'content-type': 'application/json' },
            },
            (res) => {
              res.resume();
              res.on('end', () => (res.statusCode === 200 ? resolve() : reject(new Error(`deploy: HTTP ${res.statusCode}`))));
            },
          );
          req.on('error', reject);
          req.end(body);
        }),
    ),
  );
}

async function stop(): Promise<void> {
  for (const { app, listening, dir } of running) {
    await listening.close();
    await app.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

process.on('message', (message: { id: number; op: string; args?: unknown }) => {
  const ops: Record<string, () => Promise<unknown>> = {
    start: () => start(message.args as AgentsStart),
    deploy: deployOnEach,
    counts: () => Promise.resolve(counts),
    reset: () => {
      counts = counts.map(() => ({}));
      return Promise.resolve();
    },
    stop: async () => {
      await stop();
      setImmediate(() => process.exit(0));
    },
  };
  ops[message.op]().then(
    (result) => process.send!({ id: message.id, result }),
    (error: unknown) => process.send!({ id: message.id, error: String(error instanceof Error ? error.stack : error) }),
  );
});
process.on('SIGTERM', () => void stop().finally(() => process.exit(0)));
