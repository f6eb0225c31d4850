import { randomBytes } from 'node:crypto';
import type { EntityManager } from '@mikro-orm/postgresql';
import { App } from '../apps/app.entity';
import type { Identity } from '../auth/token.service';
import { TemplateRepo } from '../catalog/template-repo.entity';
import type { SecretBox } from '../crypto/secret-box';
import { ForbiddenError, NotFoundError, ValidationError } from '../errors';
import { DeploymentTarget } from '../targets/deployment-target.entity';
import { AppAutomation, DeployHook, DeployHookCall, HOOK_KINDS, type HookKind } from './hook.entity';

export interface HookInput {
  appId?: number | null;
  targetId?: number | null;
  deploymentId?: number | null;
  templateRepoId?: number | null;
  kind?: string | null;
  name?: string | null;
  allowTag?: boolean | null;
}

/** Exactly one of an app, a deployment (target and id) or a template repo. */
export interface HookOwner {
  appId?: number | null;
  targetId?: number | null;
  deploymentId?: number | null;
  templateRepoId?: number | null;
}

/** Shown once: when the hook is made or its secret rotated. */
export interface IssuedHook {
  hook: DeployHook;
  secret: string;
}

/** Managed with the scope a hook's target needs to change: write for an app or template repo, deploy for a deployment. */
export class HookService {
  constructor(
    private readonly em: EntityManager,
    private readonly secrets: SecretBox,
    private readonly identity: Identity,
    /** PUBLIC_URL, or '' (hooks are then shown by path). */
    readonly publicBase: string,
    /** Asks the target's agent; fails with its 404 when the deployment is not there. */
    private readonly findDeployment: (targetId: number, deploymentId: number) => Promise<unknown>,
  ) {}

  async create(input: HookInput): Promise<IssuedHook> {
    const owner = await this.owner(input);
    const kind = (input.kind ?? 'generic') as HookKind;
    if (!HOOK_KINDS.includes(kind)) throw new ValidationError(`kind must be one of ${HOOK_KINDS.join(', ')}`, ['kind']);
    if (input.allowTag && !owner.app) {
      throw new ValidationError('allow_tag is for app hooks: a deployment redeploys its stored definition, and a template repo reloads', [
        'allow_tag',
      ]);
    }
    if (owner.templateRepo && kind === 'registry') {
      throw new ValidationError('a template repo is reloaded by a git push (github, gitlab or generic), not a registry push', ['kind']);
    }
    const secret = newSecret();
    const hook = this.em.create(DeployHook, {
      publicId: `hk_${randomBytes(24).toString('base64url')}`,
      name: input.name?.trim() || `${kind} hook`,
      kind,
      app: owner.app ?? null,
      target: owner.target ?? null,
      deploymentId: owner.target ? input.deploymentId! : null,
      templateRepo: owner.templateRepo ?? null,
      sealedSecret: this.secrets.seal(secret),
      allowTag: input.allowTag ?? false,
      rotatedAt: null,
      lastUsedAt: null,
    });
    await this.em.flush();
    return { hook, secret };
  }

  /** Without an owner, every hook the caller may manage. */
  async list(owner: HookOwner = {}): Promise<DeployHook[]> {
    const where: Record<string, unknown> = {};
    if (owner.appId != null) where.app = owner.appId;
    if (owner.targetId != null) where.target = owner.targetId;
    if (owner.deploymentId != null) where.deploymentId = owner.deploymentId;
    if (owner.templateRepoId != null) where.templateRepo = owner.templateRepoId;
    const hooks = await this.em.find(DeployHook, where, { orderBy: { id: 'asc' } });
    return hooks.filter((hook) => this.may(hook));
  }

  async get(id: number): Promise<DeployHook> {
    const hook = await this.em.findOne(DeployHook, { id });
    if (!hook) throw NotFoundError.of('deploy hook', id);
    this.check(hook);
    return hook;
  }

  async rotate(id: number): Promise<IssuedHook> {
    const hook = await this.get(id);
    const secret = newSecret();
    hook.sealedSecret = this.secrets.seal(secret);
    hook.rotatedAt = new Date();
    await this.em.flush();
    return { hook, secret };
  }

  /** Its URL answers 404 from now on. */
  async revoke(id: number): Promise<DeployHook> {
    const hook = await this.get(id);
    await this.em.remove(hook).flush();
    return hook;
  }

  calls(hookId: number, limit = 10): Promise<DeployHookCall[]> {
    return this.em.find(DeployHookCall, { hook: hookId }, { orderBy: { id: 'desc' }, limit: Math.min(Math.max(limit, 1), 100) });
  }

  /** Whether a push that changes the template an app was made from redeploys the app. */
  async setAppAutomation(appId: number, redeployOnTemplateChange: boolean): Promise<App> {
    const app = await this.em.findOne(App, { id: appId });
    if (!app) throw NotFoundError.of('app', appId);
    let row = await this.em.findOne(AppAutomation, { app: appId });
    row ??= this.em.create(AppAutomation, { app, template: null, redeployOnTemplateChange });
    row.redeployOnTemplateChange = redeployOnTemplateChange;
    await this.em.flush();
    return app;
  }

  async appAutomation(appId: number): Promise<AppAutomation | null> {
    return this.em.findOne(AppAutomation, { app: appId });
  }

  private async owner(input: HookOwner): Promise<{ app?: App; target?: DeploymentTarget; templateRepo?: TemplateRepo }> {
    const given = [input.appId, input.targetId ?? input.deploymentId, input.templateRepoId].filter((v) => v != null).length;
    if (given !== 1) {
      throw new ValidationError('give exactly one of app_id, target_id with deployment_id, and template_repo_id', [
        'app_id',
        'target_id',
        'template_repo_id',
      ]);
    }
    if (input.appId != null) {
      const app = await this.em.findOne(App, { id: input.appId });
      if (!app) throw new NotFoundError(`app ${input.appId} not found`, ['app_id']);
      return { app };
    }
    if (input.templateRepoId != null) {
      const templateRepo = await this.em.findOne(TemplateRepo, { id: input.templateRepoId });
      if (!templateRepo) throw new NotFoundError(`template repo ${input.templateRepoId} not found`, ['template_repo_id']);
      return { templateRepo };
    }
    if (input.targetId == null || input.deploymentId == null)
      throw new ValidationError('a deployment hook needs both target_id and deployment_id', ['target_id', 'deployment_id']);
    if (!this.identity.scopes.has('deploy')) throw new ForbiddenError('a deployment hook needs the deploy scope');
    const target = await this.em.findOne(DeploymentTarget, { id: input.targetId });
    if (!target) throw new NotFoundError(`deployment target ${input.targetId} not found`, ['target_id']);
    await this.findDeployment(target.id, input.deploymentId);
    return { target };
  }

  private may(hook: DeployHook): boolean {
    return hook.target ? this.identity.scopes.has('deploy') : this.identity.scopes.has('write');
  }

  /** A deployment's hook is as unknown to a caller without the deploy scope as one that does not exist. */
  private check(hook: DeployHook): void {
    if (!this.may(hook)) throw NotFoundError.of('deploy hook', hook.id);
  }
}

function newSecret(): string {
  return `hks_${randomBytes(32).toString('base64url')}`;
}
