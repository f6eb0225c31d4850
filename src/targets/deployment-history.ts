import { setTimeout as sleep } from 'node:timers/promises';
import type { EntityManager } from '@mikro-orm/postgresql';
import type { TemplateDefinition } from '../catalog/template-definition';
import type { KeysetPage } from '../db/keyset';
import { BadRequestError, ConflictError, DomainError, NotFoundError, UpstreamError, ValidationError } from '../errors';
import type { RegistryDigests } from '../history/image-digests';
import type { PinnedImage, RevisionDefinition } from '../history/revision-definition';
import { revisionDiff, type RevisionDiff } from '../history/revision-diff';
import type { RevisionOwner, RevisionStore } from '../history/revision-store';
import type { Revision, RevisionAction, RevisionAuthor } from '../history/revision.entity';
import { withSwitchLock } from '../history/switch-lock';
import { compact, type ImageDefinition, type OverrideImage } from '../parts/image';
import { mergeImage } from '../parts/merge';
import type { AgentClient, AgentTarget, RemoteDeployment } from './agent-client';

/** What recording a deployment's deploys as revisions needs, per request. */
export interface DeploymentHistoryDeps {
  em: EntityManager;
  store: RevisionStore;
  author(): Promise<RevisionAuthor>;
  digests: RegistryDigests;
  /** How long a deployment made by a rollback may take to run before it counts as failed. */
  healthTimeoutMs: number;
}

/** The agent's extension that takes a descriptor with a redeploy (GET /metadata's `agent.features`). */
export const REDEPLOY_DESCRIPTOR = 'redeploy_descriptor';
const POLL_MS = 500;

/**
 * A deployment's history, kept by the main service: it renders the descriptors, so each revision
 * holds the template as it was with the overrides merged, and the digest each image's registry
 * served for its tag then. A rollback sends that revision's descriptor with each image pinned to
 * its digest: as a redeploy with a descriptor to an agent that serves it, else as a new
 * deployment that replaces the old once it runs (the original protocol has no other way).
 */
export class DeploymentHistory {
  constructor(
    private readonly deps: DeploymentHistoryDeps,
    private readonly agents: AgentClient,
  ) {}

  /** A deploy that went through, as revision 1 of the deployment the agent made. */
  async created(
    targetId: number,
    deployment: RemoteDeployment,
    templateId: number | null,
    def: TemplateDefinition,
    overrides: OverrideImage[],
  ) {
    const definition = deploymentDefinition(templateId, def, overrides);
    const images = await this.deps.digests.pin(definition.images.map((image) => ({ name: image.name, source: image.source })));
    const owner = { targetId, deploymentId: deployment.id };
    const revision = await this.deps.store.open(owner, { action: 'create', definition, images, author: await this.deps.author() });
    await this.deps.store.settle(revision, { outcome: 'succeeded', images });
  }

  /**
   * A redeploy of what the agent stored, recorded with the digests its tags have now (a rollback's
   * pins are kept: the agent runs those). A deployment made before history has no definition.
   */
  async redeploy<T>(targetId: number, deploymentId: number, run: () => Promise<T>): Promise<T> {
    const owner = { targetId, deploymentId };
    return withSwitchLock(this.deps.em, owner, async () => {
      const previous = await this.deps.store.latestDefined(owner);
      const definition = previous?.definition ?? null;
      const pinned = previous?.action === 'rollback' && previous.outcome === 'succeeded';
      const images = pinned
        ? previous.images
        : definition
          ? await this.deps.digests.pin(definition.images.map((image) => ({ name: image.name, source: image.source })))
          : [];
      const [result] = await this.recorded(owner, { action: 'redeploy', definition, images }, run);
      return result;
    });
  }

  forget(owner: RevisionOwner): Promise<void> {
    return this.deps.store.forget(owner);
  }

  page(owner: RevisionOwner, window: KeysetPage): Promise<Revision[]> {
    return this.deps.store.list(owner, window);
  }

  count(owner: RevisionOwner): Promise<number> {
    return this.deps.store.count(owner);
  }

  get(owner: RevisionOwner, number: number): Promise<Revision> {
    return this.deps.store.get(owner, number);
  }

  async diff(owner: RevisionOwner, from: number, to: number): Promise<RevisionDiff> {
    const [a, b] = [await this.deps.store.get(owner, from), await this.deps.store.get(owner, to)];
    return revisionDiff(
      { number: a.number, definition: a.definition ?? null, images: a.images },
      { number: b.number, definition: b.definition ?? null, images: b.images },
    );
  }

  /**
   * The deployment runs revision `number` again, each image by its digest. Answers with the new
   * revision; its `deploymentId` is the deployment's id after it (a new one with the original protocol).
   */
  async rollback(target: AgentTarget, targetId: number, deploymentId: number, number: number): Promise<Revision> {
    const owner = { targetId, deploymentId };
    const wanted = await this.deps.store.get(owner, number);
    const definition = wanted.definition;
    if (!definition) {
      throw new ValidationError(
        `revision ${number} of deployment ${deploymentId} holds no definition (it was made before this service kept a history)`,
        ['revision'],
      );
    }
    if (wanted.outcome === 'in progress') {
      throw new ConflictError(`revision ${number} of deployment ${deploymentId} is still being deployed: roll back once it is done`, [
        'revision',
      ]);
    }
    const references = await this.references(wanted, definition);
    const descriptor = pinnedDescriptor(definition, references);
    const features = (await this.agents.metadata(target)).agent.features ?? [];
    return withSwitchLock(this.deps.em, owner, async () => {
      const draft = { action: 'rollback' as const, rollbackOf: number, definition, images: wanted.images };
      if (features.includes(REDEPLOY_DESCRIPTOR)) {
        const [, revision] = await this.recorded(owner, draft, () => this.agents.redeploy(target, deploymentId, descriptor));
        return revision;
      }
      return this.replace(target, owner, draft, descriptor);
    });
  }

  /** Each image's pinned reference; one with none, or whose registry lost it, is a 422 naming it. */
  private async references(revision: Revision, definition: RevisionDefinition): Promise<Record<string, string>> {
    const byName = new Map(revision.images.map((image) => [image.name, image]));
    const references: Record<string, string> = {};
    for (const image of definition.images) {
      const pinned = byName.get(image.name);
      if (!pinned?.reference) {
        throw new ValidationError(
          `image ${image.source} of ${image.name} has no digest in revision ${revision.number}${pinned?.note ? ` (${pinned.note})` : ''}: it cannot be rolled back to the same bits`,
          ['revision'],
        );
      }
      const lost = await this.deps.digests.lost(pinned.reference);
      if (lost) throw new ValidationError(`image ${image.source} of ${image.name} is pinned to ${pinned.reference}: ${lost}`, ['revision']);
      references[image.name] = pinned.reference;
    }
    return references;
  }

  /** The original protocol: a new deployment with the pinned descriptor; the old one goes only once the new one runs. */
  private async replace(
    target: AgentTarget,
    owner: { targetId: number; deploymentId: number },
    draft: { action: RevisionAction; rollbackOf: number; definition: RevisionDefinition; images: PinnedImage[] },
    descriptor: unknown,
  ): Promise<Revision> {
    const revision = await this.deps.store.open(owner, { ...draft, author: await this.deps.author() });
    let created: RemoteDeployment | undefined;
    try {
      created = await this.agents.createDeployment(target, descriptor);
      await this.running(target, created.id);
      await this.agents.deleteDeployment(target, owner.deploymentId);
    } catch (error) {
      if (created) await this.agents.deleteDeployment(target, created.id).catch(() => undefined);
      await this.deps.store.settle(revision, { outcome: 'failed', error: messageOf(error) });
      throw error instanceof DomainError ? error : new UpstreamError(`the rollback did not run and was removed: ${messageOf(error)}`);
    }
    await this.deps.store.moveDeployment(owner.targetId, owner.deploymentId, created.id);
    revision.deploymentId = created.id;
    return this.deps.store.settle(revision, { outcome: 'succeeded' });
  }

  /** Every service of the new deployment `running`, or the first that failed, within the timeout. */
  private async running(target: AgentTarget, id: number): Promise<void> {
    const until = Date.now() + this.deps.healthTimeoutMs;
    for (;;) {
      const services = (await this.agents.getDeployment(target, id)).status.services;
      const failed = services.find((s) => ['failed', 'stopped', 'not found', 'error'].includes(s.actualState));
      if (failed)
        throw new UpstreamError(
          `service ${failed.id} of the new deployment is ${failed.actualState}${failed.reason ? `: ${failed.reason}` : ''}`,
        );
      if (services.every((s) => s.actualState === 'running')) return;
      if (Date.now() > until)
        throw new UpstreamError(`the new deployment did not run within ${Math.round(this.deps.healthTimeoutMs / 1000)} s`);
      await sleep(POLL_MS);
    }
  }

  private async recorded<T>(
    owner: { targetId: number; deploymentId: number },
    draft: { action: RevisionAction; rollbackOf?: number; definition: RevisionDefinition | null; images: PinnedImage[] },
    run: () => Promise<T>,
  ): Promise<[T, Revision]> {
    const revision = await this.deps.store.open(owner, { ...draft, author: await this.deps.author() });
    try {
      const result = await run();
      return [result, await this.deps.store.settle(revision, { outcome: 'succeeded' })];
    } catch (error) {
      // The agent refused it (404, 400, 422): nothing was deployed, so there is no revision to keep.
      if (error instanceof NotFoundError || error instanceof BadRequestError || error instanceof ValidationError) {
        await this.deps.store.discard(revision);
      } else {
        await this.deps.store.settle(revision, { outcome: 'failed', error: messageOf(error) });
      }
      throw error;
    }
  }
}

/** The template with the overrides merged as the agent merges them (the overrides kept beside it to read). */
export function deploymentDefinition(templateId: number | null, def: TemplateDefinition, overrides: OverrideImage[]): RevisionDefinition {
  return {
    name: def.name,
    templateId,
    description: def.description,
    keywords: def.keywords,
    type: def.type,
    documentation: def.documentation,
    images: def.images.map((image) =>
      overrides
        .filter((o) => o.name.trim() === image.name.trim())
        .reduce<ImageDefinition>((merged, o) => mergeImage(merged, compact(o) as Partial<ImageDefinition>), image),
    ),
    overrides,
  };
}

/** Interface B's descriptor of a revision: its merged images, each pinned to its reference, and no overrides. */
function pinnedDescriptor(definition: RevisionDefinition, references: Record<string, string>) {
  return {
    template: {
      id: definition.templateId ?? undefined,
      name: definition.name,
      description: definition.description ?? undefined,
      keywords: definition.keywords ?? undefined,
      type: definition.type ?? undefined,
      image_count: definition.images.length,
      documentation: definition.documentation ?? undefined,
      images: definition.images.map(({ serviceId: _s, imageName: _n, options: _o, ...image }) =>
        compact({ ...image, source: references[image.name] }),
      ),
    },
    override: { images: [] },
  };
}

function messageOf(error: unknown): string {
  return error instanceof Error ? error.message : 'the deploy failed';
}
