import type { EntityManager } from '@mikro-orm/postgresql';
import type { KeysetPage } from '../db/keyset';
import { isEngineUnreachable } from '../engines/engine-errors';
import { ConflictError, DomainError, UpstreamError, ValidationError } from '../errors';
import type { RevisionDefinition } from '../history/revision-definition';
import { revisionDiff, type RevisionDiff } from '../history/revision-diff';
import type { RevisionStore } from '../history/revision-store';
import type { Revision, RevisionAction, RevisionAuthor } from '../history/revision.entity';
import type { PinnedImage } from '../history/revision-definition';
import type { App } from './app.entity';
import { applyDefinition, restoreRows, snapshotOf, type RowsSnapshot } from './app-definition';
import { loadApp, type AppsDeps } from './app-start';
import { AppSwitch, SwitchFailedError } from './app-switch';
import type { AppHistoryDeps } from './run-record';

export interface RollbackOptions {
  /** A new generation that does not get healthy is removed and the old one kept; default the service's ROLLBACK_ON_FAILURE. */
  rollbackOnFailure?: boolean | null;
}

/** What a switch left to undo if the process dies in it: the rows before it and the containers it stopped. */
export interface SwitchRestore {
  rows: RowsSnapshot;
  stopped: string[];
}

/** An app's revisions: read, compared, and gone back to with the digests they ran. */
export class AppHistoryService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AppsDeps,
  ) {}

  private get history(): AppHistoryDeps {
    return this.deps.history!;
  }

  private store(em: EntityManager = this.em): RevisionStore {
    return this.history.store(em);
  }

  /** Newest first (the page's keyset runs on the revision's row id, which grows with its number). */
  async page(appId: number, window: KeysetPage): Promise<Revision[]> {
    await loadApp(this.em, appId);
    return this.store().list({ appId }, window);
  }

  count(appId: number): Promise<number> {
    return this.store().count({ appId });
  }

  async get(appId: number, number: number): Promise<Revision> {
    await loadApp(this.em, appId);
    return this.store().get({ appId }, number);
  }

  async diff(appId: number, from: number, to: number): Promise<RevisionDiff> {
    await loadApp(this.em, appId);
    const [a, b] = [await this.store().get({ appId }, from), await this.store().get({ appId }, to)];
    return revisionDiff(
      { number: a.number, definition: a.definition ?? null, images: a.images },
      { number: b.number, definition: b.definition ?? null, images: b.images },
    );
  }

  /**
   * The app runs revision `number` again: its definition, each image by the digest it ran. Every
   * pinned image is made sure of before anything changes (a lost one is a 422 naming it); the
   * switch is health-gated, and one that fails leaves the app on what it ran before.
   */
  async rollback(appId: number, number: number, options: RollbackOptions = {}): Promise<Revision> {
    await loadApp(this.em, appId);
    const target = await this.store().get({ appId }, number);
    const definition = target.definition;
    if (!definition) throw new ValidationError(`revision ${number} of app ${appId} holds no definition to go back to`, ['revision']);
    if (target.outcome === 'in progress') {
      throw new ConflictError(`revision ${number} of app ${appId} is still being deployed: roll back once it is done`, ['revision']);
    }
    const pins = pinsOf(target, definition);
    const author = await this.history.author();
    await this.deps.runtime.settled(appId);
    // One switch of an app at a time, here and on other replicas: a second waits for the first.
    return this.deps.runtime.starts.exclusive(appId, async () => {
      const em = this.em.fork();
      const app = await loadApp(em, appId);
      const runner = this.deps.runnerFor(em);
      for (const image of definition.images) {
        await runner.imageFor({ name: image.name, from: image.source, pinnedImage: pins[image.name], options: image.options ?? {} });
      }
      return switchApp(em, this.deps, app, {
        action: 'rollback',
        rollbackOf: number,
        definition,
        images: target.images,
        pins,
        rows: snapshotOf(app),
        author,
        undo: options.rollbackOnFailure ?? this.history.config.rollbackOnFailure,
      });
    });
  }
}

export interface SwitchPlan {
  action: RevisionAction;
  rollbackOf?: number;
  /** What the app's rows become. */
  definition: RevisionDefinition;
  images: PinnedImage[];
  /** Service name → the reference its containers run (null: its image as named). */
  pins: Record<string, string | null>;
  /** The rows as they were before the switch: put back if it fails. */
  rows: RowsSnapshot;
  author: RevisionAuthor;
  /** A new generation that does not get healthy is removed and the old one kept. */
  undo: boolean;
  /** Before any container is touched, inside the revision (a redeploy's pulls): its failure fails the revision. */
  prepare?: () => Promise<void>;
}

/**
 * Switches the app (its lock held by the caller) to `plan.definition` as a revision, health-gated:
 * new containers beside the old, the old removed once the new are healthy. A failure puts the
 * rows and the old containers back and is recorded; an unhealthy new generation is a 502.
 */
export async function switchApp(em: EntityManager, deps: AppsDeps, app: App, plan: SwitchPlan): Promise<Revision> {
  const history = deps.history!;
  const store = history.store(em);
  const runner = deps.runnerFor(em);
  const restore: SwitchRestore = { rows: plan.rows, stopped: [] };
  const revision = await store.open(
    { appId: app.id },
    { action: plan.action, rollbackOf: plan.rollbackOf, definition: plan.definition, images: plan.images, author: plan.author, restore },
  );
  try {
    await plan.prepare?.();
    const applied = await applyDefinition(em, app, plan.definition, plan.pins);
    const docker = deps.runtime.docker;
    const outcome = await new AppSwitch(runner, docker, { graceMs: history.config.graceMs, timeoutMs: history.config.healthTimeoutMs }).run(
      app,
      applied.services,
      revision.number,
      {
        progress: (step) => store.progress(revision, step),
        stopped: async (ids) => {
          restore.stopped.push(...ids);
          await store.keepRestore(revision, restore);
        },
      },
      plan.undo,
    );
    const failure = outcome.failure;
    // Settled before the old containers go: a process that dies after this leaves only leftovers
    // (labelled, removed with the app), never a recorded switch it cannot undo.
    await em.flush();
    const settled = await store.settle(
      revision,
      failure === undefined
        ? { outcome: 'succeeded', images: outcome.pins }
        : { outcome: 'failed', error: messageOf(failure), images: outcome.pins, current: true },
    );
    for (const id of outcome.aside) await docker.removeContainer(id, { force: true, removeVolumes: false }).catch(() => undefined);
    for (const service of applied.retired) {
      await runner.removeServiceContainers(app.id, service.id).catch(() => undefined);
      em.remove(service);
    }
    await em.flush();
    return settled;
  } catch (error) {
    await restoreRows(em, app, plan.rows).catch(() => undefined);
    await store.settle(revision, { outcome: 'failed', error: messageOf(error) });
    throw asDomainError(error);
  }
}

/** Service name → the reference its containers must run; an image the revision has no digest for is a 422 naming it. */
function pinsOf(revision: Revision, definition: RevisionDefinition): Record<string, string | null> {
  const byName = new Map(revision.images.map((image) => [image.name, image]));
  const pins: Record<string, string | null> = {};
  for (const image of definition.images) {
    const pinned = byName.get(image.name);
    if (!pinned?.reference) {
      throw new ValidationError(
        `image ${image.source} of service ${image.name} has no digest in revision ${revision.number}${pinned?.note ? ` (${pinned.note})` : ''}: it cannot be rolled back to the same bits`,
        ['revision'],
      );
    }
    pins[image.name] = pinned.reference;
  }
  return pins;
}

function messageOf(error: unknown): string {
  const cause = error instanceof SwitchFailedError ? error.cause : error;
  return cause instanceof Error ? cause.message : String(cause);
}

/** A new generation that did not get healthy is the engine's failure (502), naming its service. */
function asDomainError(error: unknown): unknown {
  const cause = error instanceof SwitchFailedError ? error.cause : error;
  if (cause instanceof DomainError || isEngineUnreachable(cause)) return cause;
  return new UpstreamError(`the new version did not get healthy and was removed; the old one keeps running: ${messageOf(cause)}`);
}
