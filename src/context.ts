import type { EntityManager, MikroORM } from '@mikro-orm/postgresql';
import path from 'node:path';
import { AppTemplateService } from './apps/app-template';
import { ContainerRunner } from './apps/container-runner';
import type { EngineRuntime } from './apps/engine-runtime';
import { AppService } from './apps/app.service';
import { AppServiceManager } from './apps/service-manager';
import { CategoryService } from './apps/category.service';
import { LocalImageService } from './apps/local-image.service';
import type { Identity } from './auth/token.service';
import { SubscriptionTicketService } from './auth/ticket.service';
import { TokenService } from './auth/token.service';
import { PlatformService } from './catalog/platform.service';
import { RegistryService } from './catalog/registry.service';
import { RepositoryService } from './catalog/repository.service';
import { SearchService } from './catalog/search.service';
import { TemplateRepoService } from './catalog/template-repo.service';
import { TemplateService } from './catalog/template.service';
import { UserService } from './catalog/user.service';
import type { AgentClient } from './targets/agent-client';
import { createAgentLoaders } from './targets/agent-loaders';
import { TargetDeploymentService } from './targets/target-deployment.service';
import { TargetService } from './targets/target.service';
import type { Config } from './config';
import type { SecretBox } from './crypto/secret-box';
import type { Events } from './events/events';
import { SubscriptionService } from './events/subscription.service';
import type { Logger } from './logger';
import type { OutboundPolicy } from './catalog/outbound-policy';
import type { RegistryOutages } from './catalog/registry-outages';
import { AppRedeployService } from './apps/app-redeploy';
import type { Automation } from './automation';
import { HookService } from './hooks/hook.service';
import { EventSubscriptionService } from './outbound/subscription.service';
import { AppHistoryService } from './apps/app-history';
import { DeploymentHistory } from './targets/deployment-history';
import { RegistryDigests } from './history/image-digests';
import { REVISION_CHANNEL, RevisionStore } from './history/revision-store';
import type { RevisionAuthor } from './history/revision.entity';

export interface AppDeps {
  config: Config;
  orm: MikroORM;
  log: Logger;
  secrets: SecretBox;
  version: string;
  agents: AgentClient;
  engineRuntime: EngineRuntime;
  events: Events;
  /** Where client-configured outbound requests may go. */
  outbound: OutboundPolicy;
  /** Registries that did not answer a search lately, skipped for a while. */
  registryOutages: RegistryOutages;
  automation: Automation;
}

/** No entity manager: resolvers reach the database through services, which fork one when they need it. */
export interface Context {
  identity: Identity;
  log: Logger;
  services: Services;
}

export type Services = ReturnType<typeof createServices>;

/**
 * Domain services over one request's entity manager; each is built on first use. `em` may be given
 * as a function, called when a service first needs one: a request that only reads templates never
 * makes the fork (15-20 µs and ~10 KB, about 5 % of a one-template read's CPU).
 */
export function createServices(em: EntityManager | (() => EntityManager), deps: AppDeps, identity?: Identity) {
  const { config, log } = deps;
  const emOf = typeof em === 'function' ? em : () => em;
  const lazy = <T>(make: () => T) => {
    let value: T | undefined;
    return () => (value ??= make());
  };
  const registries = lazy(() => new RegistryService(emOf(), deps.secrets, deps.registryOutages));
  const templates = lazy(() => new TemplateService(emOf, deps.orm.em));
  const repos = lazy(
    () =>
      new TemplateRepoService(
        emOf(),
        {
          cacheDir: path.join(config.dataDir, 'repos'),
          timeoutMs: config.gitTimeoutMs,
          githubBaseUrl: config.githubUrl,
          localRoots: config.templateRepoRoots,
        },
        log,
      ),
  );
  const search = lazy(() => new SearchService(emOf(), registries(), config.registryTimeoutMs, log, deps.registryOutages, deps.outbound));
  const repositories = lazy(() => new RepositoryService(registries(), deps.engineRuntime.docker, config.registryTimeoutMs, deps.outbound));
  const tokens = lazy(() => new TokenService(emOf(), config.adminToken));
  const tickets = lazy(() => new SubscriptionTicketService(emOf(), config.subscriptionTicketTtlSeconds));
  const platform = lazy(() => new PlatformService(emOf(), deps.version));
  const users = lazy(() => new UserService(emOf(), config.githubUrl, config.templateRepoRoots, Boolean(config.githubToken)));
  const targets = lazy(() => new TargetService(emOf(), deps.secrets, deps.agents, log));
  // One agent request per target and key however many fields ask; each target is looked up once per request.
  const agentLoaders = lazy(() => createAgentLoaders(deps.agents, async (id) => targets().agentTarget(await targets().find(Number(id)))));
  // The request's caller, looked up once, is who each revision it makes names.
  const author = lazy((): Promise<RevisionAuthor> =>
    identity
      ? deps.automation.audit.actorOf(identity).then((actor) => ({ ...actor, name: actor.name ?? actor.kind }))
      : Promise.resolve({ kind: 'system', id: null, name: 'platform' }),
  );
  const appsDeps = {
    runtime: deps.engineRuntime,
    runnerFor: (forEm: EntityManager) => new ContainerRunner(forEm, deps.engineRuntime, new RegistryService(forEm, deps.secrets), log),
    fork: () => deps.orm.em.fork(),
    history: {
      store: (forEm: EntityManager) =>
        new RevisionStore(forEm, config.history.retention, (event) => deps.events.bus.publish(REVISION_CHANNEL, event)),
      author,
      config: config.history,
    },
  };
  const apps = lazy(() => new AppService(emOf(), appsDeps, templates(), registries(), repos(), config.appBuildContextMaxBytes));
  const appServices = lazy(() => new AppServiceManager(emOf(), appsDeps));
  const categories = lazy(() => new CategoryService(emOf()));
  const localImages = lazy(() => new LocalImageService(deps.engineRuntime.docker));
  const appTemplates = lazy(() => new AppTemplateService(emOf(), templates(), config, path.join(config.dataDir, 'repos')));
  // An app deploys as the template made from it would be: the apps domain renders it.
  const deployments = lazy(
    () =>
      new TargetDeploymentService(
        emOf(),
        targets(),
        deps.agents,
        agentLoaders(),
        (appId) => appTemplates().deployable(appId),
        new DeploymentHistory(
          {
            em: emOf(),
            store: appsDeps.history.store(emOf()),
            author,
            digests: new RegistryDigests(registries(), { timeoutMs: config.registryTimeoutMs, policy: deps.outbound }),
            healthTimeoutMs: config.history.healthTimeoutMs,
          },
          deps.agents,
        ),
      ),
  );
  const subscriptions = lazy(
    () =>
      new SubscriptionService(
        deps.events,
        (appId) => apps().get(appId),
        (id) => new AppServiceManager(deps.orm.em.fork(), appsDeps).summaryById(id),
      ),
  );
  const appRedeploy = lazy(() => new AppRedeployService(emOf(), appsDeps));
  const appHistory = lazy(() => new AppHistoryService(emOf(), appsDeps));
  const hooks = lazy(
    () =>
      new HookService(
        emOf(),
        deps.secrets,
        identity ?? { tokenId: null, username: 'platform', email: null, scopes: new Set() },
        config.publicUrl ?? '',
        (targetId, deploymentId) => deployments().get(targetId, deploymentId),
      ),
  );
  const eventSubscriptions = lazy(() => new EventSubscriptionService(emOf(), deps.secrets, deps.automation.events));
  return {
    get appRedeploy() {
      return appRedeploy();
    },
    get appHistory() {
      return appHistory();
    },
    get hooks() {
      return hooks();
    },
    get eventSubscriptions() {
      return eventSubscriptions();
    },
    get audit() {
      return deps.automation.audit;
    },
    /** Where every finished change goes: the audit log and the domain events. */
    get changes() {
      return deps.automation.changes;
    },
    get registries() {
      return registries();
    },
    get templates() {
      return templates();
    },
    get repos() {
      return repos();
    },
    get search() {
      return search();
    },
    get repositories() {
      return repositories();
    },
    get tokens() {
      return tokens();
    },
    get tickets() {
      return tickets();
    },
    get platform() {
      return platform();
    },
    get users() {
      return users();
    },
    get targets() {
      return targets();
    },
    get deployments() {
      return deployments();
    },
    get apps() {
      return apps();
    },
    get appServices() {
      return appServices();
    },
    get categories() {
      return categories();
    },
    get localImages() {
      return localImages();
    },
    get appTemplates() {
      return appTemplates();
    },
    get subscriptions() {
      return subscriptions();
    },
  };
}

/** The request's fork is made on first use: a read through pooled connections needs none. */
export function createContext(identity: Identity, deps: AppDeps): Context {
  let em: EntityManager | undefined;
  return { identity, log: deps.log, services: createServices(() => (em ??= deps.orm.em.fork()), deps, identity) };
}
