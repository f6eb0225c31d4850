import type { MikroORM } from '@mikro-orm/postgresql';
import { App, Service } from '../apps/app.entity';
import { APP_POPULATE } from '../apps/app-start';
import { ContainerRunner } from '../apps/container-runner';
import type { EngineRuntime } from '../apps/engine-runtime';
import { RegistryService } from '../catalog/registry.service';
import type { SecretBox } from '../crypto/secret-box';
import type { Logger } from '../logger';
import { recoverRevision } from '../apps/switch-recovery';
import { RevisionStore } from '../history/revision-store';
import { Revision } from '../history/revision.entity';
import { switchRunning } from '../history/switch-lock';

export interface StartResumerDeps {
  orm: MikroORM;
  engineRuntime: EngineRuntime;
  secrets: SecretBox;
  log: Logger;
  /** REVISION_RETENTION: a settled revision prunes as any other. */
  revisionRetention?: number;
}

/**
 * Finishes app starts that a process left half-done (a replica killed, or the whole service
 * restarted, while it was starting an app's services): their services keep their start mark
 * (`starting_at`) and have no container. Every replica looks, at start and then every
 * `staleMs / 2`, for marks older than `staleMs`; it resumes an app's start only when it gets the
 * app's start lock at once (src/apps/start-lock.ts), which a start still running anywhere holds,
 * so each interrupted start is finished once, by one replica.
 */
export class StartResumer {
  private timer: NodeJS.Timeout | undefined;
  private scanning: Promise<void> | undefined;
  private closed = false;

  constructor(
    private readonly deps: StartResumerDeps,
    private readonly staleMs: number,
  ) {}

  start(): void {
    void this.scan();
    this.timer = setInterval(() => void this.scan(), Math.max(500, Math.floor(this.staleMs / 2)));
    this.timer.unref();
  }

  async close(): Promise<void> {
    this.closed = true;
    clearInterval(this.timer);
    await this.scanning;
  }

  /** One look for interrupted starts (exposed for tests); concurrent calls share one. */
  scan(): Promise<void> {
    this.scanning ??= this.resumeAll()
      .catch((error: unknown) => this.deps.log.warn({ err: error }, 'start resumer: the look for interrupted starts failed'))
      .finally(() => (this.scanning = undefined));
    return this.scanning;
  }

  /** Revisions a dead process left in progress: an app's under its lock, a deployment's when no process holds its switch. */
  private async recoverRevisions(): Promise<void> {
    const em = this.deps.orm.em.fork();
    const stuck = await em.find(Revision, { outcome: 'in progress', createdAt: { $lt: this.cutoff() } }, { orderBy: { id: 'asc' } });
    for (const revision of stuck) {
      if (this.closed) return;
      const work = this.deps.orm.em.fork();
      const store = new RevisionStore(work, this.deps.revisionRetention ?? 20);
      if (revision.appId == null) {
        const owner = { targetId: revision.targetId!, deploymentId: revision.deploymentId! };
        if (!(await switchRunning(work, owner))) {
          await store.settle(revision, { outcome: 'failed', error: 'interrupted: the service stopped while the agent was deploying it' });
        }
        continue;
      }
      const runner = new ContainerRunner(work, this.deps.engineRuntime, new RegistryService(work, this.deps.secrets), this.deps.log);
      await this.deps.engineRuntime.starts.tryExclusive(revision.appId, async () => {
        const fresh = await work.findOne(Revision, { id: revision.id });
        if (fresh?.outcome !== 'in progress') return;
        this.deps.log.info({ appId: revision.appId, revision: revision.number }, 'recovering an interrupted revision');
        await recoverRevision(work, this.deps.engineRuntime, runner, store, fresh);
      });
    }
  }

  private async resumeAll(): Promise<void> {
    await this.recoverRevisions().catch((error: unknown) => this.deps.log.warn({ err: error }, 'recovering interrupted revisions failed'));
    const stale = await this.deps.orm.em
      .fork()
      .find(Service, { startingAt: { $lt: this.cutoff() } }, { fields: ['id', 'app'], orderBy: { app: 'asc' } });
    for (const appId of new Set(stale.map((service) => service.app.id))) {
      if (this.closed) return;
      await this.deps.engineRuntime.starts.tryExclusive(appId, () => this.resume(appId));
    }
  }

  /** Under the app's lock: read the marks again (the start may have ended meanwhile) and start what is left. */
  private async resume(appId: number): Promise<void> {
    const em = this.deps.orm.em.fork();
    const app = await em.findOne(App, { id: appId }, { populate: APP_POPULATE });
    if (!app) return;
    const all = app.services.getItems();
    const cutoff = this.cutoff();
    const left = all.filter((service) => service.startingAt && service.startingAt < cutoff);
    if (left.length === 0) return;
    this.deps.log.info({ appId, services: left.map((s) => s.name) }, 'resuming an interrupted start');
    const runner = new ContainerRunner(em, this.deps.engineRuntime, new RegistryService(em, this.deps.secrets), this.deps.log);
    // A failure is recorded on the services by the runner, which clears their marks.
    await runner.start(app, all, left).catch((error: unknown) => this.deps.log.warn({ err: error, appId }, 'a resumed start failed'));
  }

  private cutoff(): Date {
    return new Date(Date.now() - this.staleMs);
  }
}
