import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../errors';
import type { App, Service } from './app.entity';
import { launch, loadApp, type AppsDeps } from './app-start';
import { appRevisionDefinition, snapshotOf } from './app-definition';
import { switchApp } from './app-history';

/** Service id -> new image reference. */
export type ImageChanges = ReadonlyMap<number, string>;

/**
 * For a deploy hook: pulls again so a tag pushed anew is taken up, then switches every service to
 * new containers, health-gated (a new generation that does not get healthy is removed: 502).
 */
export class AppRedeployService {
  constructor(
    private readonly em: EntityManager,
    private readonly deps: AppsDeps,
  ) {}

  async redeploy(id: number, changes: ImageChanges = new Map()): Promise<App> {
    await this.deps.runtime.settled(id);
    // Under the app's lock for the whole run: a rollback or another redeploy waits, never interleaves.
    return this.deps.runtime.starts.exclusive(id, () => this.run(id, changes));
  }

  private async run(id: number, changes: ImageChanges): Promise<App> {
    const app = await loadApp(this.em, id);
    const services = app.services.getItems();
    for (const [serviceId, ref] of changes) {
      if (!services.some((s) => s.id === serviceId)) throw new ValidationError(`service ${serviceId} is not in app ${id}`, ['service']);
      if (!ref.trim()) throw new ValidationError('an image reference must not be blank', ['tag']);
    }
    const rows = snapshotOf(app);
    for (const [serviceId, ref] of changes) services.find((s) => s.id === serviceId)!.from = ref;
    // A redeploy takes each tag as it is now: a rollback's pinned digests are let go.
    for (const service of services) service.pinnedImage = null;
    const runner = this.deps.runnerFor(this.em);
    const pull = async () => {
      for (const ref of new Set(services.filter(pulled).map((s) => s.from))) await runner.pull(ref);
    };
    const history = this.deps.history;
    if (!history) {
      await this.em.flush();
      await pull();
      await launch(this.em, this.deps, app, services, { background: false, failOnEngineError: true });
      return app;
    }
    // Health-gated: the new containers beside the old, which go only once the new are healthy.
    await switchApp(this.em, this.deps, app, {
      action: 'redeploy',
      definition: appRevisionDefinition(app),
      images: [],
      pins: {},
      rows,
      author: await history.author(),
      undo: history.config.rollbackOnFailure,
      prepare: pull,
    });
    return app;
  }
}

// Images built from a compose context are the app's own.
function pulled(service: Service): boolean {
  return !service.options?.buildContext && !service.options?.builtImage;
}
