import { AsyncLocalStorage } from 'node:async_hooks';
import { setTimeout as sleep } from 'node:timers/promises';

/** Session-level advisory locks held on a connection that lives as long as the process (the event bus's). */
export interface SessionLocks {
  readonly connected: boolean;
  tryLock(key: readonly [number, number]): Promise<boolean>;
  unlock(key: readonly [number, number]): Promise<void>;
}

/** The advisory lock class of app starts: `[-1, appId]` (the deployment watcher's keys are positive, the producers' 0). */
const APP_START = -1;
const RETRY_MS = 250;

/**
 * One start (or restart) of an app at a time, across every replica on the database: a start holds
 * the app's advisory lock on the process's own session, so PostgreSQL releases it when the
 * process dies (`kill -9` included). Another replica that must start the same app waits for it;
 * the start resumer (src/events/start-resumer.ts) takes only a free lock, so it never resumes a
 * start that is still running somewhere. Before the bus is connected, or while it is not, starts
 * run under the in-process order alone.
 */
export class StartLock {
  private locks: SessionLocks | undefined;
  private readonly queues = new Map<number, Promise<void>>();
  private readonly holding = new AsyncLocalStorage<ReadonlySet<number>>();

  use(locks: SessionLocks): void {
    this.locks = locks;
  }

  /** Runs `work` holding the app's lock, waiting for this process's and other replicas' starts of it. */
  async exclusive<T>(appId: number, work: () => Promise<T>): Promise<T> {
    if (this.holding.getStore()?.has(appId)) return work();
    const done = this.enqueue(appId);
    try {
      await done.turn;
      const locked = await this.acquire(appId);
      try {
        return await this.inside(appId, work);
      } finally {
        if (locked) await this.locks?.unlock([APP_START, appId]);
      }
    } finally {
      done.release();
    }
  }

  /** Runs `work` holding the app's lock if no process holds it now, and says whether it ran. */
  async tryExclusive(appId: number, work: () => Promise<void>): Promise<boolean> {
    if (this.queues.has(appId) || !this.locks?.connected) return false;
    const done = this.enqueue(appId);
    try {
      if (!(await this.locks.tryLock([APP_START, appId]).catch(() => false))) return false;
      try {
        await this.inside(appId, work);
        return true;
      } finally {
        await this.locks.unlock([APP_START, appId]);
      }
    } finally {
      done.release();
    }
  }

  private inside<T>(appId: number, work: () => Promise<T>): Promise<T> {
    return this.holding.run(new Set([...(this.holding.getStore() ?? []), appId]), work);
  }

  /** This process's starts of one app, one after another. */
  private enqueue(appId: number): { turn: Promise<void>; release: () => void } {
    const previous = this.queues.get(appId) ?? Promise.resolve();
    let release!: () => void;
    const mine = new Promise<void>((resolve) => (release = resolve));
    const tail = previous.then(() => mine);
    this.queues.set(appId, tail);
    return {
      turn: previous,
      release: () => {
        release();
        if (this.queues.get(appId) === tail) this.queues.delete(appId);
      },
    };
  }

  /** Waits for the lock; false when there is no connection to hold it on (it runs unlocked then). */
  private async acquire(appId: number): Promise<boolean> {
    for (;;) {
      const locks = this.locks;
      if (!locks?.connected) return false;
      if (await locks.tryLock([APP_START, appId]).catch(() => false)) return true;
      await sleep(RETRY_MS);
    }
  }
}
