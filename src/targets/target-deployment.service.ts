import type { EntityManager } from '@mikro-orm/postgresql';
import type { TemplateDefinition } from '../catalog/template-definition';
import { templateFromStored } from '../catalog/template-shape';
import { deploymentDescriptor } from './deployment-descriptor';
import { type OverrideImage } from '../parts/image';
import { TemplateService } from '../catalog/template.service';
import { ValidationError } from '../errors';
import type { AgentClient, RemoteDeployment, RemoteDeploymentStatus } from './agent-client';
import type { AgentLoaders } from './agent-loaders';
import type { TargetService } from './target.service';
import type { DeploymentHistory } from './deployment-history';
import type { KeysetPage } from '../db/keyset';
import type { Revision } from '../history/revision.entity';
import type { RevisionDiff } from '../history/revision-diff';

export interface TargetDeploymentView {
  targetId: number;
  id: number;
  /** Absent when the view came from somewhere that does not say (a status event). */
  name?: string | null;
  /** Absent from a single deployment's read (interface B's status has no template). */
  template?: number | null;
  serviceIds?: string[];
  status?: RemoteDeploymentStatus['status'];
}

export interface DeploymentSource {
  templateId?: number | null;
  appId?: number | null;
}

/** Injected: the apps domain renders it. */
export type AppDefinitionOf = (appId: number) => Promise<TemplateDefinition>;

/** Deployments live on the agents: reads go through the per-request loaders, writes straight to the agent. */
export class TargetDeploymentService {
  constructor(
    private readonly em: EntityManager,
    private readonly targets: TargetService,
    private readonly agents: AgentClient,
    private readonly loaders: AgentLoaders,
    private readonly appDefinition: AppDefinitionOf,
    private readonly history?: DeploymentHistory,
  ) {}

  // The loaders look the target up (once per request) and fail with its 404 when it is gone.
  async list(targetId: number, options: { withStatus?: boolean } = {}): Promise<TargetDeploymentView[]> {
    const loader = options.withStatus ? this.loaders.deploymentsWithStatus : this.loaders.deployments;
    return (await loader.load(String(targetId))).map((d) => listView(targetId, d));
  }

  async get(targetId: number, id: number): Promise<TargetDeploymentView> {
    return statusView(targetId, await this.loaders.deployment.load([String(targetId), String(id)]));
  }

  /** From the target's list, so every read answers the same fields and a client cache never nulls a known template. */
  async listed<K extends 'name' | 'template'>(view: TargetDeploymentView, field: K): Promise<NonNullable<TargetDeploymentView[K]> | null> {
    if (view[field] !== undefined) return view[field] ?? null;
    const entry = (await this.loaders.deployments.load(String(view.targetId))).find((d) => d.id === view.id);
    return (entry?.[field] ?? null) as NonNullable<TargetDeploymentView[K]> | null;
  }

  /** An app goes as the template made from it would be, its services as images, as the original deployed one. */
  async create(targetId: number, source: DeploymentSource, overrideImages: OverrideImage[]): Promise<TargetDeploymentView> {
    const given = [source.templateId, source.appId].filter((id) => id !== null && id !== undefined).length;
    if (given !== 1) {
      throw new ValidationError('give exactly one of template_id and app_id: the template or the app to deploy', ['template_id', 'app_id']);
    }
    const target = this.targets.agentTarget(await this.targets.get(targetId));
    const { templateId, definition } = await this.definitionOf(source);
    const created = await this.agents.createDeployment(target, deploymentDescriptor(templateId, definition, overrideImages));
    await this.history?.created(targetId, created, templateId, definition, overrideImages);
    return this.fresh(targetId, created);
  }

  private async definitionOf(source: DeploymentSource): Promise<{ templateId: number | null; definition: TemplateDefinition }> {
    if (source.appId !== null && source.appId !== undefined)
      return { templateId: null, definition: await this.appDefinition(source.appId) };
    const template = await new TemplateService(this.em).get(source.templateId!);
    return { templateId: template.id, definition: templateFromStored(template) };
  }

  async redeploy(targetId: number, id: number): Promise<TargetDeploymentView> {
    const target = this.targets.agentTarget(await this.targets.get(targetId));
    const run = () => this.agents.redeploy(target, id);
    return this.fresh(targetId, await (this.history ? this.history.redeploy(targetId, id, run) : run()));
  }

  async delete(targetId: number, id: number): Promise<{ targetId: number; id: number }> {
    const target = this.targets.agentTarget(await this.targets.get(targetId));
    await this.agents.deleteDeployment(target, id);
    await this.history?.forget({ targetId, deploymentId: id });
    return { targetId, id };
  }

  /** Newest first; the deployment must exist on its agent. */
  async revisions(targetId: number, id: number, window: KeysetPage): Promise<Revision[]> {
    await this.get(targetId, id);
    return this.historyOf().page({ targetId, deploymentId: id }, window);
  }

  revisionCount(targetId: number, id: number): Promise<number> {
    return this.historyOf().count({ targetId, deploymentId: id });
  }

  async revision(targetId: number, id: number, number: number): Promise<Revision> {
    return this.historyOf().get({ targetId, deploymentId: id }, number);
  }

  revisionDiff(targetId: number, id: number, from: number, to: number): Promise<RevisionDiff> {
    return this.historyOf().diff({ targetId, deploymentId: id }, from, to);
  }

  /** Runs revision `number` again with its pinned digests (deploy scope); the new revision says the deployment's id after it. */
  async rollback(targetId: number, id: number, number: number): Promise<Revision> {
    const target = this.targets.agentTarget(await this.targets.get(targetId));
    await this.get(targetId, id);
    return this.historyOf().rollback(target, targetId, id, number);
  }

  private historyOf(): DeploymentHistory {
    if (!this.history) throw new Error('deployments are served without their history here');
    return this.history;
  }

  private async fresh(targetId: number, deployment: RemoteDeployment): Promise<TargetDeploymentView> {
    const target = this.targets.agentTarget(await this.targets.get(targetId));
    return statusView(targetId, await this.agents.getDeployment(target, deployment.id));
  }
}

function listView(targetId: number, d: RemoteDeployment & { status?: RemoteDeploymentStatus['status'] }): TargetDeploymentView {
  return { targetId, id: d.id, name: d.name, template: d.template, serviceIds: d.service_ids, ...(d.status ? { status: d.status } : {}) };
}

function statusView(targetId: number, d: RemoteDeploymentStatus): TargetDeploymentView {
  return { targetId, id: d.id, name: d.name, status: d.status };
}
