import type { RemoteDeploymentStatus } from '../targets/agent-client';
import type { Logger } from '../logger';
import { PayloadTooLargeError } from '../errors';
import type { EventBus, LockKey } from './event-bus';

export const DEPLOYMENT_STATUS_CHANNEL = 'deployment_status';

export type DeploymentStatus = RemoteDeploymentStatus['status'];

/**
 * What goes over NOTIFY for a deployment. `status` is absent (with `error` null) when it would not
 * fit in a NOTIFY payload: subscribers then read it from the agent themselves.
 */
export interface DeploymentStatusEvent {
  targetId: number;
  id: number;
  status?: DeploymentStatus | null;
  /** Why the agent could not be read (unreachable, deployment gone); null when it was. */
  error: string | null;
  at: string;
}

/** A status as a subscriber was handed it. */
export type DeploymentStatusSnapshot = Pick<DeploymentStatusEvent, 'status' | 'error'>;

/** Reads a deployment's status from its agent, bypassing any per-request cache. */
export type DeploymentReader = (targetId: number, id: number) => Promise<DeploymentStatus>;

/**
 * Arms a deployment's next poll `ms` from now and answers what disarms it. setTimeout by default;
 * a test passes its own to see when (and for which deployment) the poller waits, and for how long.
 */
export type PollSchedule = (poll: () => void, ms: number, deployment: { targetId: number; id: number }) => () => void;

const afterTimeout: PollSchedule = (poll, ms) => {
  const timer = setTimeout(poll, ms);
  return () => clearTimeout(timer);
};

interface Watch {
  refs: number;
  /** Disarms the next poll, while one is armed. */
  disarm: (() => void) | undefined;
  /** The last status published (or read for the subscriber that started the watch), as JSON. */
  last: string | undefined;
  /** Whether the first tick keeps `last`: a status read just before the watch started. */
  seeded: boolean;
  stopped: boolean;
  ticking: Promise<void> | undefined;
}

/**
 * Polls the agents of deployments that someone subscribed to, and publishes `deployment_status`
 * when a status changes. Ref-counted per process: the first subscription to a deployment starts
 * its poller, the last one leaving stops it. Across replicas, only the one holding the
 * deployment's advisory lock ([targetId, id]) asks the agent; the others with subscribers retry
 * the lock each interval and take over when the holder stops watching or dies (publishing the
 * status they read first; subscribers drop a repeat of what they last saw).
 */
export class DeploymentWatcher {
  private readonly watches = new Map<string, Watch>();
  private closed = false;

  constructor(
    private readonly bus: EventBus,
    private readonly read: DeploymentReader,
    private readonly log: Logger,
    private readonly intervalMs = 2000,
    private readonly schedule: PollSchedule = afterTimeout,
  ) {}

  /**
   * Starts (or joins) the poller of one deployment; call the returned function to leave.
   * `current` is the status the caller has just read and handed to its subscriber: a poller it
   * starts takes it as what was last published, and asks the agent one interval later.
   *
   * (The poller used to ask at once, while the subscription read the same status: two reads in
   * flight together, and the poller's could straddle a change the client made on seeing the
   * first, publishing a status half old and half new. Skipping the poller's first publication
   * instead would lose a change read by it, which it would then never publish again.)
   */
  watch(targetId: number, id: number, current?: DeploymentStatusSnapshot): () => void {
    const key = `${targetId}:${id}`;
    let watch = this.watches.get(key);
    if (!watch) {
      const last = current ? JSON.stringify([current.status, current.error]) : undefined;
      watch = { refs: 0, disarm: undefined, last, seeded: last !== undefined, stopped: false, ticking: undefined };
      this.watches.set(key, watch);
      const started = watch;
      started.ticking = this.tick(started, targetId, id);
    }
    watch.refs++;
    const joined = watch;
    let left = false;
    return () => {
      if (left) return;
      left = true;
      if (--joined.refs === 0) void this.stop(key, joined, [targetId, id]);
    };
  }

  /** Deployments this process is polling or waiting to poll (for tests). */
  get watched(): string[] {
    return [...this.watches.keys()];
  }

  isPolling(targetId: number, id: number): boolean {
    return this.watches.has(`${targetId}:${id}`) && this.bus.holds([targetId, id]);
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(
      [...this.watches.entries()].map(([key, watch]) => this.stop(key, watch, key.split(':').map(Number) as [number, number])),
    );
  }

  private async stop(key: string, watch: Watch, lock: LockKey): Promise<void> {
    watch.stopped = true;
    watch.disarm?.();
    if (this.watches.get(key) === watch) this.watches.delete(key);
    await watch.ticking;
    await this.bus.unlock(lock);
  }

  private async tick(watch: Watch, targetId: number, id: number): Promise<void> {
    const lock: LockKey = [targetId, id];
    const seeded = watch.seeded;
    watch.seeded = false;
    try {
      if (!this.bus.holds(lock)) {
        // Taking over from another replica: publish the first status read, whatever it is.
        if (!seeded) watch.last = undefined;
        await this.bus.tryLock(lock);
      }
      // A watch seeded with a status just read waits one interval before asking again.
      if (this.bus.holds(lock) && !watch.stopped && !seeded) await this.poll(watch, targetId, id);
    } catch (error) {
      this.log.debug({ err: error, targetId, id }, 'deployment poller: tick failed');
    }
    if (watch.stopped || this.closed) return;
    watch.disarm = this.schedule(
      () => {
        watch.disarm = undefined;
        watch.ticking = this.tick(watch, targetId, id);
      },
      this.intervalMs,
      { targetId, id },
    );
  }

  private async poll(watch: Watch, targetId: number, id: number): Promise<void> {
    let status: DeploymentStatus | null = null;
    let error: string | null = null;
    try {
      status = await this.read(targetId, id);
    } catch (failure) {
      error = failure instanceof Error ? failure.message : String(failure);
    }
    const seen = JSON.stringify([status, error]);
    if (seen === watch.last || watch.stopped) return;
    const event: DeploymentStatusEvent = { targetId, id, status, error, at: new Date().toISOString() };
    try {
      await this.bus.publish(DEPLOYMENT_STATUS_CHANNEL, event);
    } catch (failure) {
      if (!(failure instanceof PayloadTooLargeError)) throw failure;
      await this.bus.publish(DEPLOYMENT_STATUS_CHANNEL, { targetId, id, error: null, at: event.at });
    }
    watch.last = seen;
  }
}
