import type { ServiceView } from '../apps/service-view';
import { NotFoundError } from '../errors';
import { DEPLOYMENT_STATUS_CHANNEL, type DeploymentStatus, type DeploymentStatusEvent } from './deployment-watcher';
import type { Events } from './events';
import { SERVICE_STATE_CHANNEL, type ServiceStateEvent } from './service-state-feed';
import { REVISION_CHANNEL, type RevisionEvent } from '../history/revision-store';

/**
 * The service as it was read for an event. The bus hands every subscriber the one event object,
 * and a console selects the service with each event: 1,000 subscribers made 1,000 reads of the
 * same service (its row, its containers, an inspect) per change, minutes behind at 1,000.
 */
const servicesOfEvents = new WeakMap<ServiceStateEvent, Promise<ServiceView | null>>();

// Each subscription is de-duplicated: a service state repeating the one before, a state older than the last
// delivered (an engine follower taking over replays the last seconds), a poller taking over from another
// replica publishing the status it reads first.
export class SubscriptionService {
  constructor(
    private readonly events: Events,
    private readonly checkApp: (appId: number) => Promise<unknown>,
    /** Read afresh: a subscription's context lives as long as it does, and its identity map would keep the first row. */
    private readonly readService: (id: number) => Promise<ServiceView>,
  ) {}

  /** Read once per event, whatever the number of subscribers that select it (they all get the same object). */
  service(event: ServiceStateEvent): Promise<ServiceView | null> {
    let read = servicesOfEvents.get(event);
    if (!read) {
      read = this.readService(event.serviceId).then(
        // The event's state, not the list's: the engine lists a container that has just died as running for a moment.
        (view) => ({ ...view, state: { load_state: event.loadState, active_state: event.activeState, sub_state: event.subState } }),
        (error: unknown) => {
          if (error instanceof NotFoundError) return null;
          throw error;
        },
      );
      servicesOfEvents.set(event, read);
    }
    return read;
  }

  async serviceStates(filter: { appId?: number | null; serviceId?: number | null }): Promise<AsyncIterableIterator<ServiceStateEvent>> {
    if (filter.appId != null) await this.checkApp(filter.appId);
    this.events.serviceStates.ensureStarted();
    const last = new Map<number, { state: string; at: string }>();
    return this.events.bus.subscribe<ServiceStateEvent>(SERVICE_STATE_CHANNEL, (event) => {
      if (filter.appId != null && event.appId !== filter.appId) return undefined;
      if (filter.serviceId != null && event.serviceId !== filter.serviceId) return undefined;
      const state = JSON.stringify([event.loadState, event.activeState, event.subState]);
      const before = last.get(event.serviceId);
      // A repeat of the state before (a healthy report of a running container), or a follower taking over
      // replaying what was delivered already (ISO times of one format compare as strings).
      if (before && (before.state === state || event.at < before.at)) return undefined;
      last.set(event.serviceId, { state, at: event.at });
      return event;
    });
  }

  /** One app's or one deployment's revisions: each step of a switch, then its outcome. */
  async revisions(filter: { appId?: number | null; targetId?: number | null; deploymentId?: number | null }) {
    if (filter.appId != null) await this.checkApp(filter.appId);
    return this.events.bus.subscribe<RevisionEvent>(REVISION_CHANNEL, (event) => {
      if (filter.appId != null && event.appId !== filter.appId) return undefined;
      if (filter.targetId != null && event.targetId !== filter.targetId) return undefined;
      if (filter.deploymentId != null && event.deploymentId !== filter.deploymentId) return undefined;
      return event;
    });
  }

  /** An unknown target or deployment fails the subscription here. */
  async deploymentStatus(targetId: number, id: number): Promise<AsyncIterableIterator<DeploymentStatusEvent>> {
    let last: string | undefined;
    const subscriber = await this.events.bus.subscribe<DeploymentStatusEvent>(DEPLOYMENT_STATUS_CHANNEL, async (event) => {
      if (event.targetId !== targetId || event.id !== id) return undefined;
      // Too large for NOTIFY: the poller sent only "it changed".
      const full =
        event.status === undefined && event.error === null ? { ...event, status: await this.events.readDeployment(targetId, id) } : event;
      const seen = JSON.stringify([full.status, full.error]);
      if (seen === last) return undefined;
      last = seen;
      return full;
    });
    // Read before the poller starts, and handed to it: one read of the agent, not two racing.
    let status: DeploymentStatus;
    try {
      status = await this.events.readDeployment(targetId, id);
    } catch (error) {
      await subscriber.return();
      throw error;
    }
    subscriber.unshift({ targetId, id, status, error: null, at: new Date().toISOString() });
    subscriber.onDone(this.events.deployments.watch(targetId, id, { status, error: null }));
    return subscriber;
  }
}
