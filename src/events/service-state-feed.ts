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
  /** The engine's time, not ours. */
  at: string;
}

/** Deployment pollers lock [targetId, id] with ids above 0, so this cannot clash. */
export const ENGINE_FOLLOWER_LOCK: LockKey = [0, 1];

// Not `stop`: the engine sends it after the `die` of the same exit, and without the exit code.
const ACTIONS = ['create', 'start', 'die', 'destroy', 'health_status'];

// One follower per database (replicas share the engine), so each change is published once; the others retry
// the lock and take over. Resuming from the last event seen replays a few at most: subscribers drop states
// older than the last they delivered.
export class ServiceStateFeed {
  private started = false;
  private readonly stopping = new AbortController();
  private subscription: EventSubscription | undefined;
  private loop: Promise<void> | undefined;
  /** Engine seconds, to resume from. */
  private lastSeen: number | undefined;
  /** Events are handled one after another, so a container's states go out in order. */
  private chain: Promise<void> = Promise.resolve();
  /** Whether each container seen starting has a healthcheck (fixed when it is created): its start is start-pre. */
  private readonly healthchecked = new Map<string, boolean>();

  constructor(
    private readonly bus: EventBus,
    private readonly docker: DockerClient,
    private readonly instanceId: () => Promise<string>,
    private readonly log: Logger,
    private readonly retryMs = 5000,
  ) {}

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
    // The state the event itself says, not an inspect's: a stop and start done before the inspect read
    // `running` twice, and the inspect cost every event a round trip to the engine.
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

  private async observe(event: EngineEvent): Promise<ContainerObservation> {
    if (event.Action === 'destroy') {
      this.healthchecked.delete(event.Actor.ID);
      return null;
    }
    const healthchecked = event.Action === 'start' && (await this.hasHealthcheck(event.Actor.ID));
    return fromAction(event, healthchecked);
  }

  /** Inspected once per container: its configuration does not change, its state is the event's. */
  private async hasHealthcheck(container: string): Promise<boolean> {
    let known = this.healthchecked.get(container);
    if (known === undefined) {
      try {
        const inspect = await this.docker.inspectContainer(container);
        // Gone already: its next events are a destroy's.
        if (!inspect) return false;
        known = inspect.State.Health !== undefined;
      } catch (error) {
        this.log.debug({ err: error, container }, 'engine events: could not inspect the container; taken as without a healthcheck');
        return false;
      }
      this.healthchecked.set(container, known);
    }
    return known;
  }
}

/** A container's state as the event tells it; a started container with a healthcheck is `starting` until it reports. */
function fromAction(event: EngineEvent, healthchecked = false): ContainerObservation {
  const exitCode = Number(event.Actor.Attributes.exitCode ?? 0);
  const action = event.Action.split(':')[0];
  const status: Record<string, string> = { create: 'created', start: 'running', health_status: 'running', die: 'exited' };
  const health = event.Action.startsWith('health_status: ')
    ? event.Action.slice('health_status: '.length)
    : healthchecked
      ? 'starting'
      : undefined;
  return {
    State: {
      Status: status[action] ?? 'dead',
      ExitCode: exitCode,
      Running: action === 'start' || action === 'health_status',
      ...(health ? { Health: { Status: health } } : {}),
    },
  } as unknown as ContainerInspect;
}
