import type { EntityManager } from '@mikro-orm/postgresql';
import { NotFoundError, ValidationError } from '../errors';
import type { PinnedImage, RevisionDefinition } from './revision-definition';
import { Revision, type RevisionAction, type RevisionAuthor, type RevisionOutcome } from './revision.entity';

/** Whose history: an app on the local engine, or a deployment on a target. */
export type RevisionOwner = { appId: number } | { targetId: number; deploymentId: number };

export interface RevisionDraft {
  action: RevisionAction;
  rollbackOf?: number | null;
  definition: RevisionDefinition | null;
  images?: PinnedImage[];
  author: RevisionAuthor;
  restore?: unknown;
}

export interface Settlement {
  outcome: Exclude<RevisionOutcome, 'in progress' | 'rolled back'>;
  error?: string | null;
  images?: PinnedImage[];
  /** A failed revision whose containers were kept (rollbackOnFailure off) is what runs. */
  current?: boolean;
}

/** What subscribers hear: each step of a switch, then its outcome. */
export interface RevisionEvent {
  appId: number | null;
  targetId: number | null;
  deploymentId: number | null;
  number: number;
  outcome: RevisionOutcome;
  /** What the switch is doing ("web: waiting until healthy"), or the error once it failed. */
  step: string | null;
  at: string;
}

export type RevisionEvents = (event: RevisionEvent) => Promise<void> | void;

/** The bus channel revision events go out on (one NOTIFY each). */
export const REVISION_CHANNEL = 'revision_events';

export const describeOwner = (owner: RevisionOwner): string =>
  'appId' in owner ? `app ${owner.appId}` : `deployment ${owner.deploymentId} of target ${owner.targetId}`;

function where(owner: RevisionOwner): { appId: number } | { targetId: number; deploymentId: number } {
  return 'appId' in owner ? { appId: owner.appId } : { targetId: owner.targetId, deploymentId: owner.deploymentId };
}

/** The only code that reads and writes revisions: numbering, outcomes, the current one, retention. */
export class RevisionStore {
  constructor(
    private readonly em: EntityManager,
    private readonly retention: number,
    private readonly events: RevisionEvents = () => undefined,
  ) {}

  /** Numbered after the highest so far (pruned ones included), in progress until settled. */
  async open(owner: RevisionOwner, draft: RevisionDraft): Promise<Revision> {
    const revision = await this.em.transactional(async (em) => {
      const [{ max }] = await em.getConnection().execute<{ max: number | null }[]>(
        'appId' in owner
          ? 'select max(number) as max from revisions where app_id = ?'
          : 'select max(number) as max from revisions where target_id = ? and deployment_id = ?',
        'appId' in owner ? [owner.appId] : [owner.targetId, owner.deploymentId],
        'all',
        // In the transaction: without it the statement took a second pooled connection, and ten
        // revisions opened at once held the whole pool waiting for an eleventh (deploys got 503).
        em.getTransactionContext(),
      );
      const created = em.create(Revision, {
        appId: 'appId' in owner ? owner.appId : null,
        targetId: 'targetId' in owner ? owner.targetId : null,
        deploymentId: 'deploymentId' in owner ? owner.deploymentId : null,
        number: (max ?? 0) + 1,
        action: draft.action,
        rollbackOf: draft.rollbackOf ?? null,
        definition: draft.definition,
        images: draft.images ?? [],
        outcome: 'in progress',
        error: null,
        current: false,
        authorKind: draft.author.kind,
        authorId: draft.author.id,
        authorName: draft.author.name,
        restore: draft.restore ?? null,
        settledAt: null,
      });
      await em.flush();
      return created;
    });
    await this.announce(revision, null);
    return revision;
  }

  /** A step of the switch, for whoever watches it. */
  async progress(revision: Revision, step: string): Promise<void> {
    await this.announce(revision, step);
  }

  async keepRestore(revision: Revision, restore: unknown): Promise<void> {
    revision.restore = restore;
    await this.em.flush();
  }

  /**
   * Its outcome, in one transaction with what it changes: a succeeded revision becomes the current
   * one, and after a rollback the one it replaced is marked rolled back.
   */
  async settle(revision: Revision, settlement: Settlement): Promise<Revision> {
    const owner = ownerOf(revision);
    await this.em.transactional(async (em) => {
      const row = await em.findOneOrFail(Revision, { id: revision.id });
      const becomesCurrent = settlement.outcome === 'succeeded' || settlement.current === true;
      if (becomesCurrent) {
        const previous = await em.findOne(Revision, { ...where(owner), current: true });
        if (previous && previous.id !== row.id) {
          previous.current = false;
          if (row.action === 'rollback' && previous.outcome === 'succeeded') previous.outcome = 'rolled back';
        }
        row.current = true;
      }
      row.outcome = settlement.outcome;
      row.error = settlement.error ?? null;
      if (settlement.images) row.images = settlement.images;
      row.restore = null;
      row.settledAt = new Date();
      await em.flush();
      Object.assign(revision, { outcome: row.outcome, error: row.error, images: row.images, current: row.current, restore: null });
      revision.settledAt = row.settledAt;
    });
    await this.prune(owner);
    await this.announce(revision, settlement.error ?? null);
    return revision;
  }

  /**
   * Newest first, by row id (it grows with the number): `after` a cursor goes to older rows,
   * `before` one to newer; an inverted page comes oldest first, as the connection helper expects.
   */
  list(owner: RevisionOwner, page: { before?: number; after?: number; limit: number; inverted?: boolean }): Promise<Revision[]> {
    const id: { $lt?: number; $gt?: number } = {};
    if (page.after !== undefined) id.$lt = page.after;
    if (page.before !== undefined) id.$gt = page.before;
    return this.em.find(
      Revision,
      { ...where(owner), ...(Object.keys(id).length ? { id } : {}) },
      {
        orderBy: { id: page.inverted ? 'asc' : 'desc' },
        limit: page.limit,
      },
    );
  }

  count(owner: RevisionOwner): Promise<number> {
    return this.em.count(Revision, where(owner));
  }

  /** 404 for a number never given, 422 for one pruned: each names the revision. */
  async get(owner: RevisionOwner, number: number): Promise<Revision> {
    const found = await this.em.findOne(Revision, { ...where(owner), number });
    if (found) return found;
    const highest = (await this.list(owner, { limit: 1 }))[0]?.number ?? 0;
    if (Number.isInteger(number) && number >= 1 && number <= highest) {
      throw new ValidationError(
        `revision ${number} of ${describeOwner(owner)} was pruned (REVISION_RETENTION keeps the newest ${this.retention})`,
        ['revision'],
      );
    }
    throw new NotFoundError(`revision ${number} of ${describeOwner(owner)} not found`, ['revision']);
  }

  current(owner: RevisionOwner): Promise<Revision | null> {
    return this.em.findOne(Revision, { ...where(owner), current: true });
  }

  /** The newest revision that holds a definition (a redeploy deploys it again). */
  async latestDefined(owner: RevisionOwner): Promise<Revision | null> {
    const current = await this.current(owner);
    if (current?.definition) return current;
    return this.em.findOne(
      Revision,
      { ...where(owner), definition: { $ne: null } },
      {
        orderBy: { number: 'desc' },
      },
    );
  }

  /** An attempt the owner refused before anything was deployed (no such deployment, a bad descriptor) leaves no revision. */
  async discard(revision: Revision): Promise<void> {
    await this.em.nativeDelete(Revision, { id: revision.id });
  }

  async forget(owner: RevisionOwner): Promise<void> {
    await this.em.nativeDelete(Revision, where(owner));
  }

  /** A deployment remade under a new id (an agent without descriptor redeploys) keeps its history. */
  async moveDeployment(targetId: number, from: number, to: number): Promise<void> {
    await this.em.nativeUpdate(Revision, { targetId, deploymentId: from }, { deploymentId: to });
  }

  /** Beyond the newest `retention`, except the current one, the one a one-step rollback goes to, and any unfinished. */
  private async prune(owner: RevisionOwner): Promise<void> {
    const rows = await this.em.find(Revision, where(owner), {
      orderBy: { number: 'desc' },
      fields: ['id', 'number', 'outcome', 'current'],
    });
    if (rows.length <= this.retention) return;
    const current = rows.find((row) => row.current);
    const before = current ? rows.find((row) => row.number < current.number && row.outcome !== 'failed') : undefined;
    const kept = new Set([current?.id, before?.id]);
    const drop = rows.slice(this.retention).filter((row) => !kept.has(row.id) && row.outcome !== 'in progress');
    if (drop.length) await this.em.nativeDelete(Revision, { id: { $in: drop.map((row) => row.id) } });
  }

  /** Watchers are told; one that fails does not fail the switch. */
  private async announce(revision: Revision, step: string | null): Promise<void> {
    await Promise.resolve(
      this.events({
        appId: revision.appId ?? null,
        targetId: revision.targetId ?? null,
        deploymentId: revision.deploymentId ?? null,
        number: revision.number,
        outcome: revision.outcome,
        step,
        at: new Date().toISOString(),
      }),
    ).catch(() => undefined);
  }
}

export function ownerOf(revision: Pick<Revision, 'appId' | 'targetId' | 'deploymentId'>): RevisionOwner {
  return revision.appId != null ? { appId: revision.appId } : { targetId: revision.targetId!, deploymentId: revision.deploymentId! };
}
