import type { EntityManager } from '@mikro-orm/postgresql';
import type { RevisionStore } from '../history/revision-store';
import type { Revision } from '../history/revision.entity';
import { App } from './app.entity';
import { restoreRows } from './app-definition';
import type { SwitchRestore } from './app-history';
import { APP_POPULATE } from './app-start';
import { asideOf, undoSwitch } from './app-switch';
import type { ContainerRunner } from './container-runner';
import type { EngineRuntime } from './engine-runtime';

/**
 * A revision of an app left `in progress` by a process that died (its lock is free, so nothing
 * runs it): a switch is undone (its new containers removed, the old ones given their names back
 * and started, the rows put back), so the app is on the whole revision it ran before; a plain run
 * (create, rebuild, service edit) is only said to be interrupted (the start resumer finishes it).
 */
export async function recoverRevision(
  em: EntityManager,
  runtime: EngineRuntime,
  runner: ContainerRunner,
  store: RevisionStore,
  revision: Revision,
): Promise<void> {
  const appId = revision.appId!;
  const app = await em.findOne(App, { id: appId }, { populate: APP_POPULATE });
  const restore = revision.restore as SwitchRestore | null;
  const current = await store.current({ appId });
  if (app && restore?.rows) {
    const aside = await asideOf(runtime.docker, runner, appId, revision.number);
    await undoSwitch(runtime.docker, runner, appId, revision.number, aside, restore.stopped);
    await restoreRows(em, app, restore.rows);
    const back = current ? `: the app runs revision ${current.number} again` : '';
    await store.settle(revision, {
      outcome: 'failed',
      error: `interrupted: the service stopped during the switch, which was undone${back}`,
    });
    return;
  }
  await store.settle(revision, { outcome: 'failed', error: 'interrupted: the service stopped during this run' });
}
