import type { EntityManager } from '@mikro-orm/postgresql';
import type { HistoryConfig } from '../config';
import { pinnedFromEngine } from '../history/image-digests';
import type { PinnedImage } from '../history/revision-definition';
import type { RevisionStore } from '../history/revision-store';
import type { Revision, RevisionAction, RevisionAuthor } from '../history/revision.entity';
import type { App, Service } from './app.entity';
import { appRevisionDefinition } from './app-definition';
import type { RunObserver } from './container-runner';

/** What recording an app's runs as revisions needs, per request. */
export interface AppHistoryDeps {
  store(em: EntityManager): RevisionStore;
  /** Who asks: the token's name, "legacy-ui", or the platform. */
  author(): Promise<RevisionAuthor>;
  config: HistoryConfig;
}

/**
 * One run of an app's services (create, rebuild, redeploy, service edit) as a revision: opened
 * with the rows' definition before the run, settled with the digests the engine ran once it ends.
 * Services the run did not start keep the digests of the revision before.
 */
export class RunRecord {
  private readonly pins: Map<string, PinnedImage>;
  private settled = false;
  readonly observer: RunObserver;

  private constructor(
    private readonly history: AppHistoryDeps,
    private readonly revision: Revision,
    carried: readonly PinnedImage[],
  ) {
    this.pins = new Map(carried.map((pin) => [pin.name, pin]));
    this.observer = {
      revision: revision.number,
      onImage: (service, image) => this.pins.set(service.name, pinnedFromEngine(service.name, service.from, image)),
    };
  }

  static async open(em: EntityManager, history: AppHistoryDeps, app: App, action: RevisionAction): Promise<RunRecord> {
    const store = history.store(em);
    const definition = appRevisionDefinition(app);
    const names = new Set(definition.images.map((image) => image.name));
    const carried = ((await store.current({ appId: app.id }))?.images ?? []).filter((pin) => names.has(pin.name));
    const revision = await store.open({ appId: app.id }, { action, definition, images: carried, author: await history.author() });
    return new RunRecord(history, revision, carried);
  }

  get number(): number {
    return this.revision.number;
  }

  /** Failed when the run threw, the app or one of the services it started says why; once. */
  async settle(em: EntityManager, app: App, chosen: readonly Service[], error?: unknown): Promise<void> {
    if (this.settled) return;
    this.settled = true;
    const failures =
      error !== undefined
        ? [error instanceof Error ? error.message : 'the run failed']
        : [
            ...(app.errors ?? []).map((e) => e.message),
            ...chosen.filter((s) => s.lastError).map((s) => `${s.name}: ${s.lastError!.message}`),
          ];
    const order = (this.revision.definition?.images ?? []).map((image) => image.name);
    const images = order.map((name) => this.pins.get(name)).filter((pin): pin is PinnedImage => pin !== undefined);
    await this.history
      .store(em)
      .settle(
        this.revision,
        failures.length ? { outcome: 'failed', error: failures.join('; '), images } : { outcome: 'succeeded', images },
      );
  }
}
