import type { EntityManager } from '@mikro-orm/postgresql';
import { isEngineUnreachable } from '../engines/engine-errors';
import { NotFoundError } from '../errors';
import { App, Service } from './app.entity';
import type { ContainerRunner } from './container-runner';
import type { EngineRuntime } from './engine-runtime';
import type { PreparedBuilds } from './image-builds';
import { RunRecord, type AppHistoryDeps } from './run-record';
import type { RevisionAction } from '../history/revision.entity';

export interface AppsDeps {
  runtime: EngineRuntime;
  runnerFor(em: EntityManager): ContainerRunner;
  /** A fresh entity manager for work that outlives the request. */
  fork(): EntityManager;
  /** Where each run is recorded as a revision; absent: not recorded (tools, tests of the runner). */
  history?: AppHistoryDeps;
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
  /** The run is recorded as a revision of this kind. */
  record?: RevisionAction;
}

/** Pings the engine first, so an unreachable one is recorded in the request that stored the definitions. */
export async function launch(em: EntityManager, deps: AppsDeps, app: App, chosen: Service[], options: LaunchOptions): Promise<void> {
  const builds = options.builds;
  const record = options.record && deps.history ? await RunRecord.open(em, deps.history, app, options.record) : undefined;
  let scheduled = false;
  try {
    scheduled = await startOrSchedule(em, deps, app, chosen, options, record);
  } catch (error) {
    await record?.settle(em, app, chosen, error);
    throw error;
  } finally {
    if (!scheduled) await builds?.dispose();
  }
}

/** True when the start was scheduled to run after the response (it then disposes of the builds). */
async function startOrSchedule(
  em: EntityManager,
  deps: AppsDeps,
  app: App,
  chosen: Service[],
  options: LaunchOptions,
  record: RunRecord | undefined,
): Promise<boolean> {
  const runner = deps.runnerFor(em);
  await deps.runtime.settled(app.id);
  try {
    await deps.runtime.docker.ping();
  } catch (error) {
    if (!isEngineUnreachable(error) && options.failOnEngineError) throw error;
    runner.recordUnreachable(app, chosen, error as Error);
    await em.flush();
    if (options.failOnEngineError) throw error;
    await record?.settle(em, app, chosen, error);
    return false;
  }
  if (!options.background) {
    try {
      await runner.start(app, app.services.getItems(), chosen, undefined, record?.observer);
    } catch (error) {
      if (options.failOnEngineError) throw error;
      await record?.settle(em, app, chosen, error);
      return false;
    }
    await record?.settle(em, app, chosen);
    return false;
  }
  runner.markStarting(chosen);
  await em.flush();
  const ids = chosen.map((s) => s.id);
  const builds = options.builds;
  deps.runtime.schedule(app.id, () => startInBackground(deps, app.id, ids, builds, record).finally(() => builds?.dispose()));
  return true;
}

async function startInBackground(
  deps: AppsDeps,
  appId: number,
  ids: number[],
  builds: PreparedBuilds | undefined,
  record: RunRecord | undefined,
): Promise<void> {
  const work = deps.fork();
  const fresh = await work.findOne(
    App,
    { id: appId },
    { populate: ['services', 'services.links.to', 'services.volumesFrom.exportedFrom'] },
  );
  if (!fresh) return; // deleted meanwhile
  const services = fresh.services.getItems();
  const chosen = services.filter((s) => ids.includes(s.id));
  let failure: unknown;
  await deps
    .runnerFor(work)
    .start(fresh, services, chosen, builds, record?.observer)
    .catch((error: unknown) => {
      failure = error;
      // Recorded on the app and its services by the runner.
      if (!isEngineUnreachable(error)) throw error;
    })
    .finally(() => record?.settle(work, fresh, chosen, failure));
}
