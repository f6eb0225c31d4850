import { setTimeout as sleep } from 'node:timers/promises';
import { LABEL_APP, LABEL_INSTANCE, LABEL_SERVICE } from '../apps/container-labels';
import type { DockerClient } from '../engines/docker-client';
import type { EventSubscription } from '../engines/docker-events';
import type { ContainerInspect, EngineEvent } from '../engines/docker-types';
import { serviceState, type ContainerObservation } from '../engines/states';
import type { Logger } from '../logger';
import type { EventBus, LockKey } from './event-bus';

export const SERVICE_STATE_CHANNEL = 'service_state';

/** What goes over NOTIFY for a service: ids and systemd's words, never the inspect blob. */
export interface ServiceStateEvent {
  appId: number;
  serviceId: number;
  loadState: string | null;
  activeState: string | null;
  subState: string | null;
  /** When the engine saw it (ISO-8601). */
  at: string;
}

/** The engine follower's lock (the two-int4 form; deployment pollers use [targetId, id] > 0). */
export const ENGINE_FOLLOWER_LOCK: LockKey = [0, 1];

const ACTIONS = ['create', 'start', 'die', 'stop', 'destroy', 'health_status'];

/**
 * Turns the local engine's container events into `service_state` events. One follower per
 * database: whichever replica holds ENGINE_FOLLOWER_LOCK follows the engine (replicas share the
 * engine their apps run on), so every change is published once; the others retry the lock every
 * `retryMs` and take over when the holder stops or dies. Starts on the first subscription in this
 * process and runs until close; an engine that is down or drops the stream is retried quietly,
 * resuming from the last event seen (`since`), which replays at most a few events: harmless,
 * since each event's state is read from the engine as it is now.
 */
export class ServiceStateFeed {
  private started = false;
  private readonly stopping = new AbortController();
  private subscription: EventSubscription | undefined;
  private loop: Promise<void> | undefined;
  /** Engine seconds of the last event handled, to resume from. */
  private lastSeen: number | undefined;
  /** Events are handled one after another, so a container's states go out in order. */
  private chain: Promise<void> = Promise.resolve();

  constructor(
    private readonly bus: EventBus,
    private readonly docker: DockerClient,
    private readonly instanceId: () => Promise<string>,
    private readonly log: Logger,
    private readonly retryMs = 5000,
  ) {}

  /** True while this process has the engine's event stream open. */
  get following(): boolean {
    return this.subscription !== undefined;
  }

  ensureStarted(): void {
    if (this.started || this.stopping.signal.aborted) return;
    this.started = true;
    this.loop = this.run();
  }

  async close(): Promise<void> {
    this.stopping.abort();
    this.subscription?.stop();
    await this.loop;
    await this.chain;
  }

  private async run(): Promise<void> {
    while (!this.stopping.signal.aborted) {
      try {
        if (await this.bus.tryLock(ENGINE_FOLLOWER_LOCK)) await this.follow();
      } catch (error) {
        this.log.debug({ err: error }, 'engine events: not following; will retry');
      }
      try {
        await sleep(this.retryMs, undefined, { signal: this.stopping.signal });
      } catch {
        break;
      }
    }
    await this.bus.unlock(ENGINE_FOLLOWER_LOCK);
  }

  /** Follows the engine until the stream ends, the lock is lost or the feed is closed. */
  private async follow(): Promise<void> {
    const instance = await this.instanceId();
    // On a takeover, look back over the time the lock may have been free.
    const since = this.lastSeen ?? Math.floor((Date.now() - this.retryMs) / 1000) - 1;
    const subscription = await this.docker.events(
      { filters: { type: ['container'], event: ACTIONS, label: [`${LABEL_INSTANCE}=${instance}`, LABEL_APP] }, since },
      (event) => {
        this.chain = this.chain.then(() => this.handle(event));
      },
    );
    if (this.stopping.signal.aborted) return subscription.stop();
    this.subscription = subscription;
    const forget = this.bus.onLocksLost(() => subscription.stop());
    this.log.debug({ since }, 'engine events: following');
    try {
      await subscription.done;
    } finally {
      forget();
      this.subscription = undefined;
    }
  }

  private async handle(event: EngineEvent): Promise<void> {
    const attributes = event.Actor?.Attributes ?? {};
    const appId = Number(attributes[LABEL_APP]);
    const serviceId = Number(attributes[LABEL_SERVICE]);
    if (!Number.isInteger(appId) || !Number.isInteger(serviceId)) return;
    this.lastSeen = Math.max(this.lastSeen ?? 0, event.time);
    const state = serviceState(await this.observe(event));
    const payload: ServiceStateEvent = {
      appId,
      serviceId,
      loadState: state.load_state,
      activeState: state.active_state,
      subState: state.sub_state,
      at: new Date(Math.floor(event.timeNano / 1e6)).toISOString(),
    };
    await this.bus.publish(SERVICE_STATE_CHANNEL, payload).catch((error: unknown) => {
      this.log.warn({ err: error, appId, serviceId }, 'engine events: could not publish a service state');
    });
  }

  /** The container as it is now; from the event alone when the engine cannot be asked. */
  private async observe(event: EngineEvent): Promise<ContainerObservation> {
    if (event.Action === 'destroy') return null;
    try {
      return await this.docker.inspectContainer(event.Actor.ID);
    } catch (error) {
      this.log.debug(
        { err: error, container: event.Actor.ID },
        'engine events: could not inspect the container; state from the event alone',
      );
      return fromAction(event);
    }
  }
}

/** A stand-in inspect result built from the event, for when the engine does not answer. */
function fromAction(event: EngineEvent): ContainerObservation {
  const exitCode = Number(event.Actor.Attributes.exitCode ?? 0);
  const status: Record<string, string> = { create: 'created', start: 'running', health_status: 'running', die: 'exited', stop: 'exited' };
  const health = event.Action.startsWith('health_status: ') ? event.Action.slice('health_status: '.length) : undefined;
  return {
    State: {
      Status: status[event.Action.split(':')[0]] ?? 'dead',
      ExitCode: exitCode,
      Running: event.Action === 'start',
      ...(health ? { Health: { Status: health } } : {}),
    },
  } as unknown as ContainerInspect;
}
