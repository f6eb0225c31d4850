import { mkdirSync, writeFileSync } from 'node:fs';
import type { Server } from 'node:http';
import path from 'node:path';
import type { MikroORM } from '@mikro-orm/postgresql';
import { legacyUiRoutes } from '../rest/legacy-ui-routes';
import { extraRoutes, routes } from '../rest/routes';
import { getSchema } from '../schema/index';
import { EngineRuntime } from './apps/engine-runtime';
import { NetworkPool } from './apps/network-pool';
import { TokenService } from './auth/token.service';
import { OutboundPolicy } from './catalog/outbound-policy';
import { RegistryOutages } from './catalog/registry-outages';
import { AgentClient } from './targets/agent-client';
import { createAutomation, type Automation } from './automation';
import { TargetService } from './targets/target.service';
import type { Config } from './config';
import { Services, type AppDeps } from './context';
import { SecretBox } from './crypto/secret-box';
import { entities } from './entities';
import { createEvents, type Events, type EventsOptions } from './events/events';
import { startEmbeddedPostgres, type EmbeddedDatabase } from './db/embedded';
import { migrations } from './db/migrations/index';
import { openOrm } from './db/orm';
import { checkSecretKey } from './db/secret-key-check';
import { createGraphQL } from './http/graphql';
import { answerClientErrorsAsJson } from './net/client-errors';
import { attachGraphQLWs } from './http/graphql-ws';
import { createLegacyUiHandler } from './http/legacy-ui';
import { createMetricsHandler } from './http/metrics-endpoint';
import type { Handler } from './http/answers';
import { createHandler } from './http/server';
import { createLogger, type Logger } from './logger';
import { VERSION } from './version';

export interface App {
  handler: Handler;
  legacyHandler?: Handler;
  metricsHandler?: Handler;
  orm: MikroORM;
  deps: AppDeps;
  /** graphql-ws on upgrades, and JSON answers to the HTTP parser's own errors. */
  attach(server: Server): void;
  /** So that a server.close() waiting for its connections can finish. */
  closeStreams(): Promise<void>;
  close(): Promise<void>;
}

export interface AppOptions {
  log?: Logger;
  announce?: (line: string) => void;
  /** Poll and retry intervals of the subscription producers (tests shorten them). */
  events?: EventsOptions;
}

/** Never listens: main.ts does. */
export async function createApp(config: Config, options: AppOptions = {}): Promise<App> {
  const log = options.log ?? createLogger(config.logLevel);
  // Each step of the start and its time, at debug: what a slow start spent its time on.
  let stepStarted = performance.now();
  const step = (name: string) => {
    const now = performance.now();
    log.debug({ step: name, ms: Math.round(now - stepStarted), uptimeMs: Math.round(process.uptime() * 1000) }, 'start-up step');
    stepStarted = now;
  };
  step('modules loaded');
  mkdirSync(config.dataDir, { recursive: true, mode: 0o700 });
  let embedded: EmbeddedDatabase | undefined;
  let clientUrl = config.databaseUrl;
  if (!clientUrl) {
    embedded = await startEmbeddedPostgres(config.dataDir, log);
    clientUrl = embedded.url;
    step('embedded database started');
  }
  let orm: MikroORM | undefined;
  let events: Events | undefined;
  let automation: Automation | undefined;
  const agents = new AgentClient({
    connectTimeoutMs: config.agentTimeoutMs,
    headersTimeoutMs: config.agentTimeoutMs,
    bodyTimeoutMs: config.agentTimeoutMs,
    deployTimeoutMs: config.agentDeployTimeoutMs,
    maxResponseBytes: config.agentMaxResponseBytes,
  });
  const engineRuntime = new EngineRuntime(
    config.dockerHost,
    log,
    config.appDependencyTimeoutMs,
    new NetworkPool(config.appNetworkPool, config.appNetworkPrefix),
  );
  const outbound = new OutboundPolicy(config.registryAllowPrivate);
  try {
    orm = await openOrm({ clientUrl, entities, migrations, log });
    step('database opened and migrated');
    const secrets = SecretBox.fromConfig(config.secretKey, config.dataDir);
    await checkSecretKey(orm, secrets);
    events = await createEvents(
      { clientUrl, orm, log, secrets, agents, engineRuntime, revisionRetention: config.history.retention },
      { resumeStartsAfterMs: config.appStartResumeAfterSeconds * 1000, ...options.events },
    );
    step('events started');
    automation = await createAutomation({ clientUrl, config, orm, log, secrets, events, agents });
    const deps: AppDeps = {
      config,
      orm,
      log,
      secrets,
      version: VERSION,
      engineRuntime,
      agents,
      events,
      outbound,
      registryOutages: new RegistryOutages(),
      automation,
    };
    // Outside a request: over the hook's own manager, no caller.
    await automation.start((em) => new Services(em, deps));
    step('automation started');
    // Every replica opens its own, listed before it listens so /readyz waits for them: the first
    // fan-out query after a start finds the agents' connections open.
    const failed = (error: unknown) => log.warn({ err: error }, "opening the agents' connections failed");
    const targets = await new TargetService(orm.em.fork(), secrets, agents, log)
      .agentTargets()
      .catch((error: unknown) => (failed(error), []));
    void agents.open(targets).catch(failed);
    await bootstrapAdminToken(deps, options.announce ?? ((line) => process.stdout.write(`${line}\n`)));
    const schema = getSchema();
    const yoga = createGraphQL(schema, deps);
    const handler = createHandler(deps, schema, yoga, [...routes, ...extraRoutes]);
    step('schema and handlers built');
    const legacyHandler = config.legacyUi ? createLegacyUiHandler(deps, schema, legacyUiRoutes, config.legacyUi.scope) : undefined;
    const metricsHandler = config.metrics.port !== undefined ? createMetricsHandler(deps) : undefined;
    const opened = orm;
    const openedEvents = events;
    const openedAutomation = automation;
    const sockets: { close(): Promise<void> }[] = [];
    const closeStreams = async () => {
      await Promise.all(sockets.splice(0).map((s) => s.close()));
      await openedEvents.close();
    };
    return {
      handler,
      legacyHandler,
      metricsHandler,
      orm: opened,
      deps,
      attach: (server) => {
        answerClientErrorsAsJson(server);
        sockets.push(attachGraphQLWs(server, yoga, deps));
      },
      closeStreams,
      async close() {
        await closeStreams();
        await openedAutomation.close();
        await agents.close();
        await outbound.close();
        await engineRuntime.close();
        await opened.close(true);
        await embedded?.stop();
      },
    };
  } catch (error) {
    await automation?.close();
    await events?.close();
    await agents.close();
    await outbound.close();
    await engineRuntime.close();
    await orm?.close(true);
    await embedded?.stop();
    throw error;
  }
}

/** Written to DATA_DIR/admin-token (0600) and printed once; never logged. */
async function bootstrapAdminToken(deps: AppDeps, announce: (line: string) => void): Promise<void> {
  if (deps.config.adminToken) return;
  const tokens = new TokenService(deps.orm.em.fork());
  if (await tokens.hasActiveAdmin()) return;
  const issued = await tokens.issue({ name: 'bootstrap admin', username: 'admin', scopes: ['admin'] });
  const file = path.join(deps.config.dataDir, 'admin-token');
  writeFileSync(file, `${issued.token}\n`, { mode: 0o600 });
  announce(`Admin token (shown once; also written to ${file}):\n  ${issued.token}`);
}
