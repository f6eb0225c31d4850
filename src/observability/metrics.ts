import { collectDefaultMetrics, Counter, Gauge, Histogram, Registry } from 'prom-client';

/** Label values come from fixed or bounded sets, never what a client typed, so series do not grow with traffic. */
export const registry = new Registry();

const SECONDS = [0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10, 30, 60, 120];

export const httpRequests = new Histogram({
  name: 'http_server_request_duration_seconds',
  help: 'HTTP requests answered, by method, route template and status.',
  labelNames: ['method', 'route', 'status'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const graphqlOperations = new Histogram({
  name: 'graphql_operation_duration_seconds',
  help: 'GraphQL operations executed (over /graphql, WebSocket and the REST door), by operation name, type and outcome.',
  labelNames: ['operation', 'type', 'outcome', 'door'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const subscriptionsOpen = new Gauge({
  name: 'graphql_subscriptions_open',
  help: 'GraphQL subscriptions running now (SSE and WebSocket).',
  registers: [registry],
});

export const subscriptionResults = new Counter({
  name: 'graphql_subscription_results_total',
  help: 'Results of subscription events: executed once per event and distinct subscription, reused for each further subscriber of it.',
  labelNames: ['result'] as const,
  registers: [registry],
});

export const dbQueries = new Histogram({
  name: 'db_client_operation_duration_seconds',
  help: 'SQL statements run through the ORM, by statement kind and outcome.',
  labelNames: ['operation', 'outcome'] as const,
  buckets: [0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5],
  registers: [registry],
});

export const agentCalls = new Histogram({
  name: 'agent_client_request_duration_seconds',
  help: 'Calls to agents (interface B), by deployment target, operation and outcome (ok, or the error code).',
  labelNames: ['target', 'operation', 'outcome'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const engineCalls = new Histogram({
  name: 'engine_request_duration_seconds',
  help: 'Container engine API calls (to the answer headers), by operation template and outcome.',
  labelNames: ['operation', 'outcome'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const registryCalls = new Histogram({
  name: 'registry_request_duration_seconds',
  help: 'Image registry requests, by endpoint kind and outcome.',
  labelNames: ['endpoint', 'outcome'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const adapterCalls = new Histogram({
  name: 'agent_adapter_call_duration_seconds',
  help: "The agent's calls into its orchestrator adapter, by adapter, call and outcome.",
  labelNames: ['adapter', 'call', 'outcome'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export const webhookDeliveries = new Histogram({
  name: 'webhook_delivery_duration_seconds',
  help: 'Attempts to deliver an event to a subscriber, by outcome: delivered, failed (tried again later), gone (410), gave_up.',
  labelNames: ['outcome'] as const,
  buckets: SECONDS,
  registers: [registry],
});

export interface QueueSize {
  queue: string;
  waiting: number;
  active: number;
}

const queueReaders = new Set<() => Promise<QueueSize[]>>();

/** The job queue's sizes, read at each scrape; the figure is the database's, the same on every replica. */
export function observeJobQueue(read: () => Promise<QueueSize[]>): () => void {
  queueReaders.add(read);
  return () => queueReaders.delete(read);
}

new Gauge({
  name: 'job_queue_jobs',
  help: 'Jobs of the persisted queue (event deliveries, deploy hook actions), by queue and state: waiting (or to be retried), active.',
  labelNames: ['queue', 'state'] as const,
  registers: [registry],
  async collect() {
    this.reset();
    for (const read of queueReaders) {
      for (const size of await read()) {
        this.set({ queue: size.queue, state: 'waiting' }, size.waiting);
        this.set({ queue: size.queue, state: 'active' }, size.active);
      }
    }
  },
});

export const labelOverflow = new Counter({
  name: 'metrics_label_values_dropped_total',
  help: 'Label values counted under "other" because their label had reached its limit of distinct values.',
  labelNames: ['label'] as const,
  registers: [registry],
});

let defaultsOn = false;

/** Collected only once something serves them. */
export function collectProcessMetrics(): void {
  if (defaultsOn) return;
  defaultsOn = true;
  collectDefaultMetrics({ register: registry, eventLoopMonitoringPrecision: 20 });
}

export async function metricsText(): Promise<{ contentType: string; text: string }> {
  return { contentType: registry.contentType, text: await registry.metrics() };
}

/** For an open set (operation names, target ids): past `limit` distinct values, `other`, so a client cannot grow the series. */
export class BoundedLabel {
  private readonly seen = new Set<string>();

  constructor(
    private readonly name: string,
    private readonly limit: number,
  ) {}

  value(raw: string): string {
    if (this.seen.has(raw)) return raw;
    if (this.seen.size >= this.limit) {
      labelOverflow.inc({ label: this.name });
      return 'other';
    }
    this.seen.add(raw);
    return raw;
  }
}

export function outcomeOf(error: unknown): string {
  const code = (error as { code?: unknown } | null)?.code;
  return typeof code === 'string' && /^[A-Z][A-Z_]{1,40}$/.test(code) ? code : 'error';
}

export async function timed<L extends string, T>(
  histogram: Histogram<L>,
  labels: Partial<Record<L, string>>,
  work: () => Promise<T>,
): Promise<T> {
  const end = histogram.startTimer(labels);
  try {
    const result = await work();
    end({ outcome: 'ok' } as Partial<Record<L, string>>);
    return result;
  } catch (error) {
    end({ outcome: outcomeOf(error) } as Partial<Record<L, string>>);
    throw error;
  }
}

const METHODS = new Set(['GET', 'HEAD', 'POST', 'PUT', 'PATCH', 'DELETE', 'OPTIONS']);

export function methodLabel(method: string | undefined): string {
  return method && METHODS.has(method) ? method : 'other';
}
