import type { MikroORM } from '@mikro-orm/postgresql';
import type { EngineRuntime } from '../apps/engine-runtime';
import type { SecretBox } from '../crypto/secret-box';
import type { Logger } from '../logger';
import type { AgentClient } from '../targets/agent-client';
import { TargetService } from '../targets/target.service';
import { DeploymentWatcher, type DeploymentReader, type PollSchedule } from './deployment-watcher';
import { EventBus } from './event-bus';
import { ServiceStateFeed } from './service-state-feed';
import { StartResumer } from './start-resumer';

export interface EventsOptions {
  deploymentPollMs?: number;
  deploymentPollSchedule?: PollSchedule;
  /** How often a replica without a producer's lock tries to take it over. */
  leaderRetryMs?: number;
  reconnectMs?: number;
  /** An app start mark older than this, whose app no process is starting, is resumed (ms). */
  resumeStartsAfterMs?: number;
}

export interface Events {
  bus: EventBus;
  serviceStates: ServiceStateFeed;
  deployments: DeploymentWatcher;
  /** Finishes app starts a process left half-done (src/events/start-resumer.ts). */
  starts: StartResumer;
  /** Reads a deployment's status from its agent now (no per-request cache). */
  readDeployment: DeploymentReader;
  close(): Promise<void>;
}

export interface EventsDeps {
  clientUrl: string;
  orm: MikroORM;
  log: Logger;
  secrets: SecretBox;
  agents: AgentClient;
  engineRuntime: EngineRuntime;
  /** REVISION_RETENTION, for revisions the start resumer settles. */
  revisionRetention?: number;
}

export async function createEvents(deps: EventsDeps, options: EventsOptions = {}): Promise<Events> {
  const log = deps.log.child({ component: 'events' });
  const bus = new EventBus(deps.clientUrl, log, { reconnectMs: options.reconnectMs });
  await bus.start();
  const fork = () => deps.orm.em.fork();
  const readDeployment: DeploymentReader = async (targetId, id) => {
    const targets = new TargetService(fork(), deps.secrets, deps.agents, log);
    const target = targets.agentTarget(await targets.get(targetId));
    return (await deps.agents.getDeployment(target, id)).status;
  };
  const serviceStates = new ServiceStateFeed(
    bus,
    deps.engineRuntime.docker,
    () => deps.engineRuntime.instanceId(fork()),
    log,
    options.leaderRetryMs,
  );
  const deployments = new DeploymentWatcher(bus, readDeployment, log, options.deploymentPollMs, options.deploymentPollSchedule);
  // App starts take their lock on the bus's session: a replica that dies releases them.
  deps.engineRuntime.starts.use(bus);
  const starts = new StartResumer(
    { orm: deps.orm, engineRuntime: deps.engineRuntime, secrets: deps.secrets, log, revisionRetention: deps.revisionRetention },
    options.resumeStartsAfterMs ?? 60_000,
  );
  starts.start();
  return {
    bus,
    serviceStates,
    deployments,
    starts,
    readDeployment,
    async close() {
      // Producers first (they release their locks on the bus connection), then the bus, which
      // completes every subscriber's stream.
      await Promise.all([serviceStates.close(), deployments.close(), starts.close()]);
      await bus.close();
    },
  };
}
