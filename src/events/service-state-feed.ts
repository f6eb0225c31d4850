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

const ACTIONS = ['create', 'start', 'die', 'stop', 'destroy', 'health_status'];

// One follower per database (replicas share the engine), so each change is published once; the others retry
// the lock and take over. Resuming from the last event seen replays a few at most: harmless, as each state is
// read from the engine as it is now.
export class ServiceStateFeed {
  private started = false;
  private readonly stopping = new AbortController();
  private subscription: EventSubscription | undefined;
  private loop: Promise<void> | undefined;
  /** Engine seconds, to resume from. */
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
