import type { EntityManager } from '@mikro-orm/postgresql';
import { DockerClient } from '../engines/docker-client';
import type { Logger } from '../logger';
import { NetworkPool } from './network-pool';
import { StartLock } from './start-lock';

/** Held for the process's life: the engine client, the installation id, and starts still running after their request. */
export class EngineRuntime {
  readonly docker: DockerClient;
  /** One start of an app at a time across replicas (start-lock.ts). */
  readonly starts = new StartLock();
  private instance: string | undefined;
  private readonly inFlight = new Map<number, Promise<void>>();

  constructor(
    dockerHost: string,
    private readonly log: Logger,
    readonly dependencyTimeoutMs = 120_000,
    readonly networkPool = new NetworkPool('10.192.0.0/12', 24),
  ) {
    this.docker = new DockerClient({ host: dockerHost });
  }

  async instanceId(em: EntityManager): Promise<string> {
    if (this.instance) return this.instance;
    const rows: { id: string }[] = await em.getConnection().execute('select id from platform_instance limit 1');
    this.instance = rows[0].id;
    return this.instance;
  }

  /** Runs `work` after the response; one app's background starts run one after another. */
  schedule(appId: number, work: () => Promise<void>): void {
    const previous = this.inFlight.get(appId) ?? Promise.resolve();
    const next = previous
      .then(work)
      .catch((error: unknown) => this.log.error({ err: error, appId }, 'starting services failed'))
      .finally(() => {
        if (this.inFlight.get(appId) === next) this.inFlight.delete(appId);
      });
    this.inFlight.set(appId, next);
  }

  /** Only a start in this process is waited for. */
  async settled(appId: number): Promise<void> {
    await this.inFlight.get(appId);
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.inFlight.values()]);
    await this.docker.close();
  }
}
