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

// Each subscription is de-duplicated: the engine sends `die` and `stop` for one exit, and a poller taking
// over from another replica publishes the status it reads first.
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
      read = this.readService(event.serviceId).catch((error: unknown) => {
        if (error instanceof NotFoundError) return null;
        throw error;
      });
      servicesOfEvents.set(event, read);
    }
    return read;
  }

  async serviceStates(filter: { appId?: number | null; serviceId?: number | null }): Promise<AsyncIterableIterator<ServiceStateEvent>> {
    if (filter.appId != null) await this.checkApp(filter.appId);
    this.events.serviceStates.ensureStarted();
    const last = new Map<number, string>();
    return this.events.bus.subscribe<ServiceStateEvent>(SERVICE_STATE_CHANNEL, (event) => {
      if (filter.appId != null && event.appId !== filter.appId) return undefined;
      if (filter.serviceId != null && event.serviceId !== filter.serviceId) return undefined;
      const state = JSON.stringify([event.loadState, event.activeState, event.subState]);
      if (last.get(event.serviceId) === state) return undefined;
      last.set(event.serviceId, state);
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
