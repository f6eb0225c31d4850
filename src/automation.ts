import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import type { App } from './apps/app.entity';
import type { ImageChanges } from './apps/app-redeploy';
import { AuditLog } from './audit/audit-log';
import { MutationStream } from './audit/mutation-stream';
import { OutboundPolicy } from './catalog/outbound-policy';
import { Template } from './catalog/template.entity';
import { templateFromStored } from './catalog/template-shape';
import type { Config } from './config';
import type { SecretBox } from './crypto/secret-box';
import { queryRows } from './db/rows';
import type { Events } from './events/events';
import { HookReceiver } from './hooks/hook-receiver';
import { HookRunner, type HookTargets } from './hooks/hook-runner';
import type { Logger } from './logger';
import { clientAddressResolver } from './net/client-address';
import type { ClientAddressOf } from './net/request-origin';
import { DeliveryWorker } from './outbound/delivery-worker';
import { DomainEventLog } from './outbound/domain-events';
import { JobQueue } from './outbound/queue';
import { ServiceStateEvents } from './outbound/service-state-events';
import { TargetHealthPoller } from './outbound/target-health';
import type { AgentClient } from './targets/agent-client';

/** The process-wide parts of deploy hooks, outbound events and the audit log. */
export interface Automation {
  audit: AuditLog;
  events: DomainEventLog;
  changes: MutationStream;
  queue: JobQueue;
  hooks: HookReceiver;
  serviceStates: ServiceStateEvents;
  targetHealth: TargetHealthPoller;
  deliveries: DeliveryWorker;
  clientAddress: ClientAddressOf;
  /** Starts the workers and pollers; `services` builds the domain services a hook's work calls. */
  start(services: (em: EntityManager) => HookServices): Promise<void>;
  close(): Promise<void>;
}

export interface AutomationDeps {
  clientUrl: string;
  config: Config;
  orm: MikroORM;
  log: Logger;
  secrets: SecretBox;
  events: Events;
  agents: AgentClient;
}

const WAKE_CHANNEL = 'outbound_wake';

export async function createAutomation(deps: AutomationDeps): Promise<Automation> {
  const { config, orm, secrets } = deps;
  const log = deps.log.child({ component: 'automation' });
  const settings = config.automation;
  const queue = await JobQueue.start(deps.clientUrl, log, { rescueSeconds: settings.webhookRescueSeconds });
  const policy = new OutboundPolicy(settings.webhookAllowPrivate);
  const events = new DomainEventLog(
    orm,
    queue,
    {
      retryLimit: settings.webhookRetryLimit,
      retryDelaySeconds: settings.webhookRetryDelaySeconds,
      // Four hops (three redirects), each with the whole deadline, and a margin.
      expireInSeconds: Math.ceil((settings.webhookTimeoutMs * 4) / 1000) + 5,
    },
    log,
  );
  const audit = new AuditLog(orm, log);
  const changes = new MutationStream(audit, events, log);
  // An app remembers the template it was made from: a push that changes that template's file may redeploy it.
  changes.onSettled(async (change, outcome) => {
    const input = change.input as { templateId?: unknown } | null;
    const app = change.result as { id?: unknown } | null;
    if (change.operation !== 'createApp' || outcome !== 'ok' || typeof input?.templateId !== 'number' || typeof app?.id !== 'number')
      return;
    await queryRows(
      orm.em.fork(),
      `insert into app_automation (app_id, template_id) values ($1, $2) on conflict (app_id) do update set template_id = excluded.template_id`,
      [app.id, input.templateId],
    );
  });
  const deliveries = new DeliveryWorker(orm, queue, secrets, policy, log, {
    concurrency: settings.webhookConcurrency,
    timeoutMs: settings.webhookTimeoutMs,
  });
  const bus = deps.events.bus;
  // Jobs queued here wake this worker at once, and the other replicas' over NOTIFY.
  events.onQueued(() => {
    deliveries.wake();
    void bus.publish(WAKE_CHANNEL, {}).catch(() => undefined);
  });
  let runner: HookRunner | undefined;
  const hooks = new HookReceiver(
    orm,
    secrets,
    queue,
    { perWindow: settings.hookRateLimit, windowSeconds: settings.hookRateWindowSeconds },
    () => runner?.wake(),
  );
  const serviceStates = new ServiceStateEvents(orm, deps.events, events, log);
  const targetHealth = new TargetHealthPoller(orm, bus, deps.agents, secrets, events, log, settings.targetHealthIntervalSeconds * 1000);
  const clientAddress = clientAddressResolver(config.trustedProxies);
  let wakeSubscriber: AsyncIterableIterator<{ subscriptions?: boolean }> | undefined;
  let retention: NodeJS.Timeout | undefined;

  return {
    audit,
    events,
    changes,
    queue,
    hooks,
    serviceStates,
    targetHealth,
    deliveries,
    clientAddress,
    async start(services) {
      const wake = await bus.subscribe<{ subscriptions?: boolean }>(WAKE_CHANNEL);
      wakeSubscriber = wake;
      void (async () => {
        for await (const message of wake) {
          deliveries.wake();
          if (message?.subscriptions) await serviceStates.startIfWanted().catch(() => undefined);
        }
      })();
      // A subscription made or changed on any replica may ask for service states: every replica looks.
      changes.onSettled(async (change, outcome) => {
        if (outcome === 'ok' && /^(create|update)EventSubscription$/.test(change.operation))
          await bus.publish(WAKE_CHANNEL, { subscriptions: true });
      });
      deliveries.start();
      runner = new HookRunner(orm, queue, () => hookTargets(orm, services), changes, log);
      await runner.start();
      await serviceStates.startIfWanted();
      targetHealth.start();
      const prune = () =>
        void audit.prune(config.auditRetentionDays).catch((error: unknown) => log.warn({ err: error }, 'audit: retention pruning failed'));
      prune();
      retention = setInterval(prune, 6 * 3600 * 1000).unref();
    },
    async close() {
      clearInterval(retention);
      await wakeSubscriber?.return?.();
      await runner?.stop();
      await deliveries.stop();
      await targetHealth.close();
      await serviceStates.close();
      await queue.stop();
      await policy.close();
    },
  };
}

export interface HookServices {
  apps: { get(id: number): Promise<App> };
  appRedeploy: { redeploy(id: number, changes: ImageChanges): Promise<App> };
  deployments: { redeploy(targetId: number, id: number): Promise<unknown> };
  repos: { reload(id: number): Promise<unknown> };
}

/** The domains a hook's work calls, over a fresh entity manager per job. */
function hookTargets(orm: MikroORM, servicesFor: (em: EntityManager) => HookServices): HookTargets {
  const em = orm.em.fork();
  const services = servicesFor(em);
  const definitions = async (repoId: number) => {
    const templates = await orm.em.fork().find(Template, { repo: repoId }, { populate: ['images'] });
    return new Map(templates.map((t) => [t.id, JSON.stringify(templateFromStored(t))]));
  };
  return {
    async appImages(appId) {
      const app = await services.apps.get(appId);
      return app.services.getItems().map((s) => ({ id: s.id, from: s.from }));
    },
    redeployApp: (appId, changes) => servicesFor(orm.em.fork()).appRedeploy.redeploy(appId, changes),
    redeployDeployment: (targetId, id) => services.deployments.redeploy(targetId, id),
    async reloadRepo(id) {
      const before = await definitions(id);
      await services.repos.reload(id);
      const after = await definitions(id);
      return [...after].filter(([templateId, text]) => before.get(templateId) !== text).map(([templateId]) => templateId);
    },
    async appsToFollow(templateIds) {
      if (templateIds.length === 0) return [];
      const rows = await queryRows<{ app_id: number; service_id: number; from_image: string; source: string | null }>(
        em,
        `select a.app_id, s.id as service_id, s.from_image, i.source
         from app_automation a
         join services s on s.app_id = a.app_id
         left join template_images i on i.template_id = a.template_id and i.name = coalesce(s.image_name, s.name)
         where a.redeploy_on_template_change and a.template_id = any($1)
         order by a.app_id, s.id`,
        [templateIds],
      );
      const apps = new Map<number, Map<number, string>>();
      for (const row of rows) {
        const changes = apps.get(row.app_id) ?? new Map<number, string>();
        apps.set(row.app_id, changes);
        if (row.source && row.source !== row.from_image) changes.set(row.service_id, row.source);
      }
      return [...apps].map(([appId, changes]) => ({ appId, changes }));
    },
  };
}
