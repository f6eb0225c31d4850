import { setTimeout as sleep } from 'node:timers/promises';
import { Client, type QueryResult, type QueryResultRow } from 'pg';
import { PayloadTooLargeError, UnavailableError } from '../errors';
import type { Logger } from '../logger';
import { Subscriber } from './subscriber';

/** PostgreSQL refuses NOTIFY payloads of 8000 bytes or more. */
export const MAX_PAYLOAD_BYTES = 7999;

export type LockKey = readonly [number, number];

export interface EventBusOptions {
  /** First wait before reconnecting; doubles up to `maxReconnectMs`. */
  reconnectMs?: number;
  maxReconnectMs?: number;
  /** Events a slow subscriber may have queued before the oldest are dropped. */
  queueLimit?: number;
}

interface Channel {
  subscribers: Set<Subscriber<unknown, unknown>>;
  listening?: Promise<void>;
}

// docs/design.md "Events across replicas". NOTIFY reaches this process's own session too, so local and
// remote subscribers see the same events in the same order; it keeps nothing, so events sent during a
// reconnect are lost. Advisory locks on this session end with it: a dead replica hands its work over.
export class EventBus {
  private client: Client | undefined;
  private readonly turns = new WeakMap<Client, Promise<unknown>>();
  private readonly channels = new Map<string, Channel>();
  private readonly held = new Set<string>();
  private readonly lockLost = new Set<() => void>();
  private closed = false;
  private connecting: Promise<void> | undefined;
  private firstAttempt: Promise<void> | undefined;
  private readonly stopping = new AbortController();
  private readonly reconnectMs: number;
  private readonly maxReconnectMs: number;
  private readonly queueLimit: number;

  constructor(
    private readonly url: string,
    private readonly log: Logger,
    options: EventBusOptions = {},
  ) {
    this.reconnectMs = options.reconnectMs ?? 500;
    this.maxReconnectMs = options.maxReconnectMs ?? 15_000;
    this.queueLimit = options.queueLimit ?? 1000;
  }

  /** Settles after the first attempt to connect; a failure keeps retrying in the background. */
  start(): Promise<void> {
    if (!this.connecting) {
      let attempted!: () => void;
      this.firstAttempt = new Promise<void>((resolve) => (attempted = resolve));
      this.connecting = this.connectLoop(attempted);
    }
    return this.firstAttempt!;
  }

  get connected(): boolean {
    return this.client !== undefined;
  }

  /** As JSON under 8000 bytes: ids and states, never blobs. */
  async publish(channel: string, payload: object): Promise<void> {
    checkChannel(channel);
    const text = JSON.stringify(payload);
    if (Buffer.byteLength(text) > MAX_PAYLOAD_BYTES) {
      throw new PayloadTooLargeError(
        `an event on ${channel} is ${Buffer.byteLength(text)} bytes; NOTIFY takes at most ${MAX_PAYLOAD_BYTES}`,
      );
    }
    const client = this.client;
    if (!client) throw new UnavailableError('the event bus is not connected to the database');
    await this.serially(client, 'select pg_notify($1, $2)', [channel, text]);
  }

  /** Resolves once LISTEN is in place, so an event published afterwards reaches it. */
  async subscribe<In, Out = In>(
    channel: string,
    map?: (value: In) => Out | undefined | Promise<Out | undefined>,
  ): Promise<Subscriber<In, Out>> {
    checkChannel(channel);
    let entry = this.channels.get(channel);
    if (!entry) this.channels.set(channel, (entry = { subscribers: new Set() }));
    const subscriber = new Subscriber<In, Out>(this.queueLimit, () => this.leave(channel, subscriber as Subscriber<unknown, unknown>), map);
    if (this.closed) {
      subscriber.end();
      return subscriber;
    }
    entry.subscribers.add(subscriber as Subscriber<unknown, unknown>);
    if (this.client) await (entry.listening ??= this.listen(this.client, channel)).catch(() => undefined);
    return subscriber;
  }

  async whenListening(channel: string): Promise<void> {
    await this.channels.get(channel)?.listening;
  }

  subscriberCount(channel: string): number {
    return this.channels.get(channel)?.subscribers.size ?? 0;
  }

  async tryLock(key: LockKey): Promise<boolean> {
    const id = key.join(':');
    if (this.held.has(id)) return true;
    const client = this.client;
    if (!client) return false;
    const { rows } = await this.serially<{ ok: boolean }>(client, 'select pg_try_advisory_lock($1::int4, $2::int4) as ok', [...key]);
    if (!rows[0].ok) return false;
    if (this.client !== client) return false;
    this.held.add(id);
    return true;
  }

  holds(key: LockKey): boolean {
    return this.held.has(key.join(':'));
  }

  async unlock(key: LockKey): Promise<void> {
    const id = key.join(':');
    if (!this.held.delete(id)) return;
    const client = this.client;
    if (client) await this.serially(client, 'select pg_advisory_unlock($1::int4, $2::int4)', [...key]).catch(() => undefined);
  }

  /** A lost connection loses every lock this process held. */
  onLocksLost(handler: () => void): () => void {
    this.lockLost.add(handler);
    return () => this.lockLost.delete(handler);
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    this.stopping.abort();
    for (const entry of this.channels.values()) for (const subscriber of [...entry.subscribers]) subscriber.end();
    const client = this.client;
    this.client = undefined;
    this.held.clear();
    await client?.end().catch(() => undefined);
  }

  private async connectLoop(attempted: () => void): Promise<void> {
    let wait = this.reconnectMs;
    while (!this.closed) {
      try {
        await this.connect();
        return;
      } catch (error) {
        this.log.warn({ err: error, retryInMs: wait }, 'event bus: cannot connect to the database; retrying');
      } finally {
        attempted();
      }
      try {
        await sleep(wait, undefined, { signal: this.stopping.signal });
      } catch {
        return;
      }
      wait = Math.min(wait * 2, this.maxReconnectMs);
    }
  }

  private async connect(): Promise<void> {
    const client = new Client({ connectionString: this.url, application_name: 'platform-events' });
    client.on('notification', (message) => this.deliver(message.channel, message.payload));
    // 'error' and 'end' both fire on a loss; only the first for the current client counts.
    client.on('error', (error) => this.lost(client, error));
    client.on('end', () => this.lost(client));
    await client.connect();
    if (this.closed) {
      await client.end().catch(() => undefined);
      return;
    }
    this.client = client;
    const channels = [...this.channels.entries()].filter(([, entry]) => entry.subscribers.size > 0);
    await Promise.all(channels.map(([channel, entry]) => (entry.listening = this.listen(client, channel))));
    this.log.debug({ channels: channels.map(([name]) => name) }, 'event bus connected');
  }

  private lost(client: Client, error?: Error): void {
    if (this.client !== client) return;
    this.client = undefined;
    this.held.clear();
    for (const entry of this.channels.values()) entry.listening = undefined;
    client.end().catch(() => undefined);
    if (this.closed) return;
    this.log.warn({ err: error }, 'event bus: lost the database connection; reconnecting (events sent meanwhile are lost)');
    for (const handler of [...this.lockLost]) handler();
    this.connecting = undefined;
    void this.start();
  }

  private async listen(client: Client, channel: string): Promise<void> {
    await this.serially(client, `listen "${channel}"`);
  }

  /** One statement at a time on the session: pg queues a second itself, but that is deprecated (gone in pg 9). */
  private serially<T extends QueryResultRow>(client: Client, sql: string, params?: unknown[]): Promise<QueryResult<T>> {
    const result = (this.turns.get(client) ?? Promise.resolve()).then(() => client.query<T>(sql, params));
    this.turns.set(
      client,
      result.catch(() => undefined),
    );
    return result;
  }

  private deliver(channel: string, payload: string | undefined): void {
    const entry = this.channels.get(channel);
    if (!entry || entry.subscribers.size === 0) return;
    let value: unknown;
    try {
      value = JSON.parse(payload ?? 'null');
    } catch {
      this.log.warn({ channel }, 'event bus: dropped a payload that is not JSON');
      return;
    }
    for (const subscriber of entry.subscribers) subscriber.push(value);
  }

  /** The channel stays LISTENed to: an idle one costs nothing and a LISTEN/UNLISTEN race is avoided. */
  private leave(channel: string, subscriber: Subscriber<unknown, unknown>): void {
    this.channels.get(channel)?.subscribers.delete(subscriber);
  }
}

/** Channel names go into LISTEN as quoted identifiers: keep them plain. */
function checkChannel(channel: string): void {
  if (!/^[a-z][a-z0-9_]{0,62}$/.test(channel)) throw new TypeError(`not a channel name: ${channel}`);
}
