import type { EntityManager } from '@mikro-orm/postgresql';
import { ValidationError } from '../errors';
import type { App, Service } from './app.entity';
import { launch, loadApp, type AppsDeps } from './app-start';

/** Service id -> new image reference. */
export type ImageChanges = ReadonlyMap<number, string>;

/** For a deploy hook: pulls again so a tag pushed anew is taken up, then recreates every service as a rebuild (502 on failure). */
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
      const service = services.find((s) => s.id === serviceId);
      if (!service) throw new ValidationError(`service ${serviceId} is not in app ${id}`, ['service']);
      if (!ref.trim()) throw new ValidationError('an image reference must not be blank', ['tag']);
      service.from = ref;
    }
    // A redeploy takes each tag as it is now: a rollback's pinned digests are let go.
    for (const service of services) service.pinnedImage = null;
    await this.em.flush();
    const runner = this.deps.runnerFor(this.em);
    await this.deps.runtime.settled(id);
    for (const ref of new Set(services.filter(pulled).map((s) => s.from))) {
      await runner.pull(ref);
    }
    await launch(this.em, this.deps, app, services, { background: false, failOnEngineError: true, record: 'redeploy' });
    return app;
  }
}

// Images built from a compose context are the app's own.
function pulled(service: Service): boolean {
  return !service.options?.buildContext && !service.options?.builtImage;
}
