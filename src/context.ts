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
import { createAgentLoaders, type AgentLoaders } from './targets/agent-loaders';
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
import type { AppsDeps } from './apps/app-start';
import type { AuditLog } from './audit/audit-log';
import type { MutationStream } from './audit/mutation-stream';

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

/**
 * Domain services over one request's entity manager; each is built on first use. `em` may be given
 * as a function, called when a service first needs one: a request that only reads templates never
 * makes the fork (15-20 µs and ~10 KB, about 5 % of a one-template read's CPU). A class, so a
 * request makes one object, not thirty closures and an object of getters (~10 KB more per request).
 */
export class Services {
  private readonly emOf: () => EntityManager;
  private _registries?: RegistryService;
  private _templates?: TemplateService;
  private _repos?: TemplateRepoService;
  private _search?: SearchService;
  private _repositories?: RepositoryService;
  private _tokens?: TokenService;
  private _tickets?: SubscriptionTicketService;
  private _platform?: PlatformService;
  private _users?: UserService;
  private _targets?: TargetService;
  private _agentLoaders?: AgentLoaders;
  private _author?: Promise<RevisionAuthor>;
  private _appsDeps?: AppsDeps;
  private _apps?: AppService;
  private _appServices?: AppServiceManager;
  private _categories?: CategoryService;
  private _localImages?: LocalImageService;
  private _appTemplates?: AppTemplateService;
  private _deployments?: TargetDeploymentService;
  private _subscriptions?: SubscriptionService;
  private _appRedeploy?: AppRedeployService;
  private _appHistory?: AppHistoryService;
  private _hooks?: HookService;
  private _eventSubscriptions?: EventSubscriptionService;

  constructor(
    em: EntityManager | (() => EntityManager),
    private readonly deps: AppDeps,
    private readonly identity?: Identity,
  ) {
    this.emOf = typeof em === 'function' ? em : () => em;
  }

  get audit(): AuditLog {
    return this.deps.automation.audit;
  }

  /** Where every finished change goes: the audit log and the domain events. */
  get changes(): MutationStream {
    return this.deps.automation.changes;
  }

  get registries(): RegistryService {
    return (this._registries ??= new RegistryService(this.emOf(), this.deps.secrets, this.deps.registryOutages));
  }

  get templates(): TemplateService {
    return (this._templates ??= new TemplateService(this.emOf, this.deps.orm.em));
  }

  get repos(): TemplateRepoService {
    if (this._repos) return this._repos;
    const { config, log } = this.deps;
    const options = {
      cacheDir: path.join(config.dataDir, 'repos'),
      timeoutMs: config.gitTimeoutMs,
      githubBaseUrl: config.githubUrl,
      localRoots: config.templateRepoRoots,
    };
    return (this._repos = new TemplateRepoService(this.emOf(), options, log));
  }

  get search(): SearchService {
    const { config, log, registryOutages, outbound } = this.deps;
    return (this._search ??= new SearchService(this.emOf(), this.registries, config.registryTimeoutMs, log, registryOutages, outbound));
  }

  get repositories(): RepositoryService {
    const { config, engineRuntime, outbound } = this.deps;
    return (this._repositories ??= new RepositoryService(this.registries, engineRuntime.docker, config.registryTimeoutMs, outbound));
  }

  get tokens(): TokenService {
    return (this._tokens ??= new TokenService(this.emOf(), this.deps.config.adminToken));
  }

  get tickets(): SubscriptionTicketService {
    return (this._tickets ??= new SubscriptionTicketService(this.emOf(), this.deps.config.subscriptionTicketTtlSeconds));
  }

  get platform(): PlatformService {
    return (this._platform ??= new PlatformService(this.emOf(), this.deps.version));
  }

  get users(): UserService {
    const { config } = this.deps;
    return (this._users ??= new UserService(this.emOf(), config.githubUrl, config.templateRepoRoots, Boolean(config.githubToken)));
  }

  get targets(): TargetService {
    return (this._targets ??= new TargetService(this.emOf(), this.deps.secrets, this.deps.agents, this.deps.log));
  }

  get apps(): AppService {
    const maxBytes = this.deps.config.appBuildContextMaxBytes;
    return (this._apps ??= new AppService(this.emOf(), this.appsDeps, this.templates, this.registries, this.repos, maxBytes));
  }

  get appServices(): AppServiceManager {
    return (this._appServices ??= new AppServiceManager(this.emOf(), this.appsDeps));
  }

  get categories(): CategoryService {
    return (this._categories ??= new CategoryService(this.emOf()));
  }

  get localImages(): LocalImageService {
    return (this._localImages ??= new LocalImageService(this.deps.engineRuntime.docker));
  }

  get appTemplates(): AppTemplateService {
    const { config } = this.deps;
    return (this._appTemplates ??= new AppTemplateService(this.emOf(), this.templates, config, path.join(config.dataDir, 'repos')));
  }

  /** An app deploys as the template made from it would be: the apps domain renders it. */
  get deployments(): TargetDeploymentService {
    if (this._deployments) return this._deployments;
    const { config, agents, outbound } = this.deps;
    const em = this.emOf();
    const history = new DeploymentHistory(
      {
        em,
        store: this.revisionStore(em),
        author: () => this.author,
        digests: new RegistryDigests(this.registries, { timeoutMs: config.registryTimeoutMs, policy: outbound }),
        healthTimeoutMs: config.history.healthTimeoutMs,
      },
      agents,
    );
    const deployable = (appId: number) => this.appTemplates.deployable(appId);
    return (this._deployments = new TargetDeploymentService(em, this.targets, agents, this.agentLoaders, deployable, history));
  }

  get subscriptions(): SubscriptionService {
    const { events, orm } = this.deps;
    return (this._subscriptions ??= new SubscriptionService(
      events,
      (appId) => this.apps.get(appId),
      (id) => new AppServiceManager(orm.em.fork(), this.appsDeps).summaryById(id),
    ));
  }

  get appRedeploy(): AppRedeployService {
    return (this._appRedeploy ??= new AppRedeployService(this.emOf(), this.appsDeps));
  }

  get appHistory(): AppHistoryService {
    return (this._appHistory ??= new AppHistoryService(this.emOf(), this.appsDeps));
  }

  get hooks(): HookService {
    if (this._hooks) return this._hooks;
    const { config, secrets } = this.deps;
    const caller = this.identity ?? { tokenId: null, username: 'platform', email: null, scopes: new Set() };
    return (this._hooks = new HookService(this.emOf(), secrets, caller, config.publicUrl ?? '', (targetId, deploymentId) =>
      this.deployments.get(targetId, deploymentId),
    ));
  }

  get eventSubscriptions(): EventSubscriptionService {
    return (this._eventSubscriptions ??= new EventSubscriptionService(this.emOf(), this.deps.secrets, this.deps.automation.events));
  }

  /** One agent request per target and key however many fields ask; each target is looked up once per request. */
  private get agentLoaders(): AgentLoaders {
    return (this._agentLoaders ??= createAgentLoaders(this.deps.agents, async (id) =>
      this.targets.agentTarget(await this.targets.find(Number(id))),
    ));
  }

  /** The request's caller, looked up once, is who each revision it makes names. */
  private get author(): Promise<RevisionAuthor> {
    const { identity } = this;
    return (this._author ??= identity
      ? this.deps.automation.audit.actorOf(identity).then((actor) => ({ ...actor, name: actor.name ?? actor.kind }))
      : Promise.resolve({ kind: 'system', id: null, name: 'platform' }));
  }

  private revisionStore(em: EntityManager): RevisionStore {
    const { config, events } = this.deps;
    return new RevisionStore(em, config.history.retention, (event) => events.bus.publish(REVISION_CHANNEL, event));
  }

  private get appsDeps(): AppsDeps {
    if (this._appsDeps) return this._appsDeps;
    const { config, engineRuntime, secrets, log, orm } = this.deps;
    return (this._appsDeps = {
      runtime: engineRuntime,
      runnerFor: (forEm: EntityManager) => new ContainerRunner(forEm, engineRuntime, new RegistryService(forEm, secrets), log),
      fork: () => orm.em.fork(),
      history: {
        store: (forEm: EntityManager) => this.revisionStore(forEm),
        author: () => this.author,
        config: config.history,
      },
    });
  }
}

/** The request's fork is made on first use: a read through pooled connections needs none. */
export function createContext(identity: Identity, deps: AppDeps): Context {
  let em: EntityManager | undefined;
  return { identity, log: deps.log, services: new Services(() => (em ??= deps.orm.em.fork()), deps, identity) };
}
