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
  close(): void;
}

const clients: Subscriber[] = [];
const errors: string[] = [];
const wsClients: Client[] = [];
const agent = new HttpAgent({ keepAlive: false, maxSockets: Infinity });

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
  const sub: Subscriber = { received: 0, latencies: [], dropped: false, close: () => undefined };
  const url = new URL('/graphql', start.url);
  const req = httpRequest(url, {
    method: 'POST',
    agent,
    headers: { authorization: `Bearer ${start.token}`, accept: 'text/event-stream', 'content-type': 'application/json' },
  });
  let buffer = '';
  req.on('response', (res) => {
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
    sub.dropped = true;
    if (errors.length < 5) errors.push(`SSE: ${error.message}`);
  });
  req.end(JSON.stringify({ query: QUERY, variables: { appId: start.appId } }));
  sub.close = () => req.destroy();
  return sub;
}

function ws(start: SubscribersStart): Subscriber {
  const sub: Subscriber = { received: 0, latencies: [], dropped: false, close: () => undefined };
  const client = createClient({
    url: start.url.replace(/^http/, 'ws') + '/graphql',
    webSocketImpl: WebSocket,
    connectionParams: { authorization: `Bearer ${start.token}` },
    lazy: false,
    retryAttempts: 0,
    onNonLazyError: (error) => {
      sub.dropped = true;
      if (errors.length < 5) errors.push(`WS: ${String(error)}`);
    },
  });
  wsClients.push(client);
  const stop = client.subscribe(
    { query: QUERY, variables: { appId: start.appId } },
    {
      next: (value) => onEvent(sub, value),
      error: (error) => {
        sub.dropped = true;
        if (errors.length < 5) errors.push(`WS: ${error instanceof Error ? error.message : JSON.stringify(error)}`);
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
    // Adds clients until there are `count`, alternating SSE and WebSocket.
    connect: () => {
      const start = message.args as SubscribersStart;
      while (clients.length < start.count) clients.push(clients.length % 2 === 0 ? sse(start) : ws(start));
      return Promise.resolve(clients.length);
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
