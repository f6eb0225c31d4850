import type { EntityManager } from '@mikro-orm/postgresql';
import { isEngineUnreachable } from '../engines/engine-errors';
import { NotFoundError } from '../errors';
import { App, Service } from './app.entity';
import type { ContainerRunner } from './container-runner';
import type { EngineRuntime } from './engine-runtime';
import type { PreparedBuilds } from './image-builds';

export interface AppsDeps {
  runtime: EngineRuntime;
  runnerFor(em: EntityManager): ContainerRunner;
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

export async function loadApp(em: EntityManager, id: number): Promise<App> {
  const app = await em.findOne(App, { id }, { populate: APP_POPULATE });
  if (!app) throw NotFoundError.of('app', id);
  return app;
}

export interface LaunchOptions {
  /** Answer now and start after the response (creates); else wait for the start (updates, rebuilds). */
  background: boolean;
  /** Rebuilds: an unreachable engine, or any failure of the run itself, is the answer (502). */
  failOnEngineError: boolean;
  /** A new app's compose `build:` images, disposed of when the start ends. */
  builds?: PreparedBuilds;
}

/** Pings the engine first, so an unreachable one is recorded in the request that stored the definitions. */
export async function launch(em: EntityManager, deps: AppsDeps, app: App, chosen: Service[], options: LaunchOptions): Promise<void> {
  const builds = options.builds;
  let scheduled = false;
  try {
    scheduled = await startOrSchedule(em, deps, app, chosen, options);
  } finally {
    if (!scheduled) await builds?.dispose();
  }
}

/** True when the start was scheduled to run after the response (it then disposes of the builds). */
async function startOrSchedule(em: EntityManager, deps: AppsDeps, app: App, chosen: Service[], options: LaunchOptions): Promise<boolean> {
  const runner = deps.runnerFor(em);
  await deps.runtime.settled(app.id);
  try {
    await deps.runtime.docker.ping();
  } catch (error) {
    if (!isEngineUnreachable(error) && options.failOnEngineError) throw error;
    runner.recordUnreachable(app, chosen, error as Error);
    await em.flush();
    if (options.failOnEngineError) throw error;
    return false;
  }
  if (!options.background) {
    try {
      await runner.start(app, app.services.getItems(), chosen);
    } catch (error) {
      if (options.failOnEngineError) throw error;
    }
    return false;
  }
  runner.markStarting(chosen);
  await em.flush();
  const ids = chosen.map((s) => s.id);
  const builds = options.builds;
  deps.runtime.schedule(app.id, () => startInBackground(deps, app.id, ids, builds).finally(() => builds?.dispose()));
  return true;
}

async function startInBackground(deps: AppsDeps, appId: number, ids: number[], builds: PreparedBuilds | undefined): Promise<void> {
  const work = deps.fork();
  const fresh = await work.findOne(
    App,
    { id: appId },
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
      builds,
    )
    .catch((error: unknown) => {
      // Recorded on the app and its services by the runner.
      if (!isEngineUnreachable(error)) throw error;
    });
}
