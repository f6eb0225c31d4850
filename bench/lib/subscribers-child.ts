import { request as httpRequest, Agent as HttpAgent } from 'node:http';
import { createClient, type Client } from 'graphql-ws';
import WebSocket from 'ws';

/**
 * Scenario 15's clients, in their own process: half subscribe to `serviceStateChanged` over
 * GraphQL over SSE (POST /graphql, Accept: text/event-stream), half over WebSocket (graphql-ws).
 * Each records every event it receives with the time it arrived; the latency of an event is that
 * time minus the engine's own time of the change (`at`), both read from this machine's clock.
 */
export interface SubscribersStart {
  url: string;
  token: string;
  appId: number;
  count: number;
}
export interface SubscribersStats {
  clients: number;
  sse: number;
  ws: number;
  /** Events each client has received, in client order. */
  received: number[];
  /** Clients whose stream ended or failed. */
  dropped: number;
  errors: string[];
  /** Engine event to client, ms, every event of every client since the last `mark`. */
  latencies: number[];
}

const QUERY = `subscription States($appId: Int!) {
  serviceStateChanged(appId: $appId) { serviceId activeState subState at service { id databaseId activeState subState } }
}`;

interface Subscriber {
  received: number;
  latencies: number[];
  dropped: boolean;
  /** Settles once the server has taken the subscription (SSE: its answer's headers; WebSocket: connection_ack) or refused it. */
  ready: Promise<void>;
  close(): void;
}

/** Clients connected at once: the rest wait for these, as clients arriving over time would. */
const BATCH = 100;

const clients: Subscriber[] = [];
const errors: string[] = [];
const wsClients: Client[] = [];
const agent = new HttpAgent({ keepAlive: false, maxSockets: Infinity });

/** What a failure says: graphql-ws hands over close events and error lists, not Errors. */
function describe(error: unknown): string {
  if (error instanceof Error) return error.message;
  if (Array.isArray(error)) return error.map(describe).join('; ');
  if (error && typeof error === 'object') {
    const { code, reason, message, type } = error as { code?: unknown; reason?: unknown; message?: unknown; type?: unknown };
    return JSON.stringify({ type, code, reason, message });
  }
  return String(error);
}

function onEvent(sub: Subscriber, payload: unknown): void {
  const event = (payload as { data?: { serviceStateChanged?: { at?: string } } }).data?.serviceStateChanged;
  if (!event?.at) {
    if (errors.length < 5) errors.push(`unexpected payload: ${JSON.stringify(payload).slice(0, 200)}`);
    return;
  }
  sub.received++;
  sub.latencies.push(Date.now() - Date.parse(event.at));
}

function sse(start: SubscribersStart): Subscriber {
  let settle = () => undefined as void;
  const sub: Subscriber = {
    received: 0,
    latencies: [],
    dropped: false,
    ready: new Promise((resolve) => (settle = resolve)),
    close: () => undefined,
  };
  const url = new URL('/graphql', start.url);
  const req = httpRequest(url, {
    method: 'POST',
    agent,
    headers: { authorization: `Bearer ${start.token}`, accept: 'text/event-stream', 'content-type': 'application/json' },
  });
  let buffer = '';
  req.on('response', (res) => {
    settle();
    if (res.statusCode !== 200) {
      sub.dropped = true;
      errors.push(`SSE: HTTP ${res.statusCode}`);
    }
    res.setEncoding('utf8');
    res.on('data', (chunk: string) => {
      buffer += chunk;
      for (let end = buffer.indexOf('\n\n'); end >= 0; end = buffer.indexOf('\n\n')) {
        const message = buffer.slice(0, end);
        buffer = buffer.slice(end + 2);
        const data = message
          .split('\n')
          .filter((line) => line.startsWith('data:'))
          .map((line) => line.slice(5).trim())
          .join('\n');
        if (message.includes('event: next') && data) onEvent(sub, JSON.parse(data));
      }
    });
    res.on('end', () => (sub.dropped = true));
    res.on('error', () => (sub.dropped = true));
  });
  req.on('error', (error) => {
    settle();
    sub.dropped = true;
    if (errors.length < 5) errors.push(`SSE: ${error.message}`);
  });
  req.end(JSON.stringify({ query: QUERY, variables: { appId: start.appId } }));
  sub.close = () => req.destroy();
  return sub;
}

function ws(start: SubscribersStart): Subscriber {
  let settle = () => undefined as void;
  const sub: Subscriber = {
    received: 0,
    latencies: [],
    dropped: false,
    ready: new Promise((resolve) => (settle = resolve)),
    close: () => undefined,
  };
  const client = createClient({
    url: start.url.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${start.token}` },
    lazy: false,
    retryAttempts: 0,
    on: { connected: () => settle(), closed: () => settle() },
    onNonLazyError: (error) => {
      settle();
      sub.dropped = true;
      if (errors.length < 5) errors.push(`WS: ${describe(error)}`);
    },
  });
  wsClients.push(client);
  const stop = client.subscribe(
    { query: QUERY, variables: { appId: start.appId } },
    {
      next: (value) => onEvent(sub, value),
      error: (error) => {
        sub.dropped = true;
        if (errors.length < 5) errors.push(`WS: ${describe(error)}`);
      },
      complete: () => (sub.dropped = true),
    },
  );
  sub.close = () => {
    stop();
    void client.dispose();
  };
  return sub;
}

function stats(): SubscribersStats {
  return {
    clients: clients.length,
    sse: Math.ceil(clients.length / 2),
    ws: Math.floor(clients.length / 2),
    received: clients.map((c) => c.received),
    dropped: clients.filter((c) => c.dropped).length,
    errors: errors.slice(0, 5),
    latencies: clients.flatMap((c) => c.latencies),
  };
}

process.on('message', (message: { id: number; op: string; args?: unknown }) => {
  const ops: Record<string, () => Promise<unknown>> = {
    // Adds clients until there are `count`, alternating SSE and WebSocket, a batch at a time.
    connect: async () => {
      const start = message.args as SubscribersStart;
      while (clients.length < start.count) {
        const batch: Subscriber[] = [];
        while (batch.length < BATCH && clients.length < start.count) {
          const client = clients.length % 2 === 0 ? sse(start) : ws(start);
          clients.push(client);
          batch.push(client);
        }
        await Promise.all(batch.map((c) => c.ready));
      }
      return clients.length;
    },
    stats: () => Promise.resolve(stats()),
    // Forgets the latencies so far (a warm-up's), keeps the counts.
    mark: () => {
      for (const c of clients) c.latencies = [];
      return Promise.resolve();
    },
    close: () => {
      for (const c of clients.splice(0)) c.close();
      return Promise.resolve();
    },
  };
  ops[message.op]().then(
    (result) => process.send!({ id: message.id, result }),
    (error: unknown) => process.send!({ id: message.id, error: String(error instanceof Error ? error.stack : error) }),
  );
});
process.on('SIGTERM', () => {
  for (const c of clients) c.close();
  process.exit(0);
});
