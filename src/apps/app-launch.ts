import type { EntityManager } from '@mikro-orm/postgresql';
import { isEngineUnreachable } from '../engines/engine-errors';
import { NotFoundError } from '../errors';
import { App, Service } from './app.entity';
import type { AppRunner } from './app-runner';
import type { AppRuntime } from './app-runtime';

/** What the apps domain needs beyond the request's entity manager. */
export interface AppsDeps {
  runtime: AppRuntime;
  runnerFor(em: EntityManager): AppRunner;
  /** A fresh entity manager for work that outlives the request. */
  fork(): EntityManager;
}

export const APP_POPULATE = [
  'categories',
  'services',
  'services.links',
  'services.links.to',
  'services.volumesFrom',
  'services.volumesFrom.exportedFrom',
] as const;

/** The app with its categories and services (links and shared volumes resolved), or 404. */
export async function loadApp(em: EntityManager, id: number): Promise<App> {
  const app = await em.findOne(App, { id }, { populate: APP_POPULATE });
  if (!app) throw NotFoundError.of('app', id);
  return app;
}

export interface LaunchOptions {
  /** Answer now and start after the response (creates); else wait for the start (updates, rebuilds). */
  background: boolean;
  /** Rebuild: an unreachable engine (or any failure of the run itself) is the answer, 502. */
  failOnEngineError: boolean;
}

/**
 * Starts `chosen` services of `app`. The engine is asked first, so that an unreachable one is
 * recorded (app and services' errors, null states) in the same request that stored the
 * definitions; the start itself runs after the response when `background`.
 */
export async function launch(em: EntityManager, deps: AppsDeps, app: App, chosen: Service[], options: LaunchOptions): Promise<void> {
  const runner = deps.runnerFor(em);
  await deps.runtime.settled(app.id);
  try {
    await deps.runtime.docker.ping();
  } catch (error) {
    if (!isEngineUnreachable(error) && options.failOnEngineError) throw error;
    runner.recordUnreachable(app, chosen, error as Error);
    await em.flush();
    if (options.failOnEngineError) throw error;
    return;
  }
  if (!options.background) {
    try {
      await runner.start(app, app.services.getItems(), chosen);
    } catch (error) {
      if (options.failOnEngineError) throw error;
    }
    return;
  }
  runner.markStarting(chosen);
  await em.flush();
  const ids = chosen.map((s) => s.id);
  deps.runtime.schedule(app.id, async () => {
    const work = deps.fork();
    const fresh = await work.findOne(
      App,
      { id: app.id },
      { populate: ['services', 'services.links.to', 'services.volumesFrom.exportedFrom'] },
    );
    if (!fresh) return; // deleted meanwhile
    const services = fresh.services.getItems();
    await deps
      .runnerFor(work)
      .start(
        fresh,
        services,
        services.filter((s) => ids.includes(s.id)),
      )
      .catch((error: unknown) => {
        // Recorded on the app and its services by the runner.
        if (!isEngineUnreachable(error)) throw error;
      });
  });
}
