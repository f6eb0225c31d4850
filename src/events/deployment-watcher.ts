import type { RemoteDeploymentStatus } from '../targets/agent-client';
import type { Logger } from '../logger';
import { PayloadTooLargeError } from '../errors';
import type { EventBus, LockKey } from './event-bus';

export const DEPLOYMENT_STATUS_CHANNEL = 'deployment_status';

export type DeploymentStatus = RemoteDeploymentStatus['status'];

/** `status` is absent when it would not fit in a NOTIFY payload: subscribers then read it from the agent. */
export interface DeploymentStatusEvent {
  targetId: number;
  id: number;
  status?: DeploymentStatus | null;
  error: string | null;
  at: string;
}

export type DeploymentStatusSnapshot = Pick<DeploymentStatusEvent, 'status' | 'error'>;

/** Must bypass any per-request cache. */
export type DeploymentReader = (targetId: number, id: number) => Promise<DeploymentStatus>;

/** Returns the disarm. Tests pass their own to see when, and for which deployment, the poller waits. */
export type PollSchedule = (poll: () => void, ms: number, deployment: { targetId: number; id: number }) => () => void;

const afterTimeout: PollSchedule = (poll, ms) => {
  const timer = setTimeout(poll, ms);
  return () => clearTimeout(timer);
};

interface Watch {
  refs: number;
  disarm: (() => void) | undefined;
  /** The last status published, as JSON. */
  last: string | undefined;
  seeded: boolean;
  stopped: boolean;
  ticking: Promise<void> | undefined;
}

// Ref-counted per process. Across replicas only the holder of the deployment's advisory lock asks the
// agent; the others retry the lock each interval and take over when it stops watching or dies.
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

  // `current`, just read for the subscriber, counts as published and the agent is asked an interval later:
  // a second read at once could straddle a change the client made on seeing the first.
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
