import type { MikroORM } from '@mikro-orm/postgresql';
import { startEmbeddedPostgres, type EmbeddedDatabase } from '../db/embedded';
import { openOrm } from '../db/orm';
import { createLogger, type Logger } from '../logger';
import type { Adapter } from './adapters/adapter';
import { createAdapter } from './adapters/create-adapter';
import { observedAdapter } from './adapter-telemetry';
import type { AgentConfig } from './config';
import { lockAgentDatabase } from './database-lock';
import { BasicAuthChecker, loadOrCreateCredentials, type AgentCredentials } from './credentials';
import { AgentDeployment } from './deployment.entity';
import { DeploymentService } from './agent-deployment.service';
import { agentMigrations } from './migrations';
import { createMetricsListener } from './metrics-listener';
import { AGENT_FEATURES, agentRoutes } from './routes';
import { createRequestHandler, type RequestListener } from './server';

export interface AgentApp {
  handler: RequestListener;
  metricsHandler?: RequestListener;
  credentials: AgentCredentials;
  adapter: Adapter;
  orm: MikroORM;
  log: Logger;
  close(): Promise<void>;
}

export interface AgentDeps {
  /** Tests pass their own. */
  adapter?: Adapter;
  log?: Logger;
}

/** Never listens: main.ts (or a test) puts `handler` behind node:https with `credentials`. */
export async function createAgentApp(config: AgentConfig, deps: AgentDeps = {}): Promise<AgentApp> {
  const log = deps.log ?? createLogger(config.logLevel, 'platform-agent');
  const credentials = await loadOrCreateCredentials(config.dataDir, config.publicUrl, log);
  let embedded: EmbeddedDatabase | undefined;
  const cleanups: (() => Promise<void>)[] = [];
  try {
    let databaseUrl = config.databaseUrl;
    if (!databaseUrl) {
      embedded = await startEmbeddedPostgres(config.dataDir, log);
      cleanups.push(() => embedded!.stop());
      databaseUrl = embedded.url;
    }
    const orm = await openOrm({
      clientUrl: databaseUrl,
      entities: [AgentDeployment],
      migrations: agentMigrations,
      migrationsTable: 'agent_migrations',
      log,
      poolSize: 5,
    });
    cleanups.unshift(() => orm.close(true));
    const lock = await lockAgentDatabase(orm);
    cleanups.unshift(() => lock.release());
    const adapter = observedAdapter(deps.adapter ?? createAdapter(config, log));
    cleanups.unshift(() => adapter.close());
    const deployments = new DeploymentService(orm, adapter, log);
    const auth = new BasicAuthChecker(config.dataDir, credentials);
    const handler = createRequestHandler({
      routes: agentRoutes(deployments, adapter, config.protocol === 'original' ? [] : AGENT_FEATURES),
      log,
      authenticate: (header) => auth.check(header),
    });
    const metricsHandler =
      config.metricsPort !== undefined ? createMetricsListener(config.metricsHost, (header) => auth.check(header), log) : undefined;
    let closed = false;
    return {
      handler,
      metricsHandler,
      credentials,
      adapter,
      orm,
      log,
      async close() {
        if (closed) return;
        closed = true;
        await runAll(cleanups, log);
      },
    };
  } catch (error) {
    await runAll(cleanups, log);
    throw error;
  }
}

/** Every cleanup step runs even when one fails; a failure is logged, not thrown over the others. */
async function runAll(steps: (() => Promise<void>)[], log: Logger): Promise<void> {
  for (const step of steps) await step().catch((error: unknown) => log.error({ err: error }, 'agent cleanup step failed'));
}
