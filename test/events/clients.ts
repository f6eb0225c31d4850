import { createClient, type Client } from 'graphql-ws';
import { request } from 'undici';
import WebSocket from 'ws';
import { expect } from '@jest/globals';
import { ADMIN_TOKEN, type GraphQLBody, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';
import { TEST_IMAGE, testDockerClient } from '../helpers/docker';
import { instanceId } from '../apps/fixtures';

const TIMEOUT_MS = 20_000;

/**
 * Something that yields GraphQL results one by one, with a deadline on each; `T` is the data as
 * the test's subscription selects it.
 */
export interface ResultStream {
  next<T = unknown>(timeoutMs?: number): Promise<GraphQLBody<T>>;
  close(): Promise<void>;
}

/** A queue fed by a push source; `next()` waits for the next item (or fails after a deadline). */
class Inbox {
  private readonly items: unknown[] = [];
  private waiter: ((item: unknown) => void) | undefined;
  private failure: Error | undefined;

  push(item: unknown): void {
    const waiter = this.waiter;
    this.waiter = undefined;
    if (waiter) waiter(item);
    else this.items.push(item);
  }

  private failed(): Error | undefined {
    return this.failure;
  }

  fail(error: Error): void {
    this.failure = error;
    this.push(undefined);
  }

  /** The next result as the caller's subscription selects it (what the server sent, not checked here). */
  async next<T>(timeoutMs = TIMEOUT_MS): Promise<GraphQLBody<T>> {
    if (this.items.length > 0) return this.items.shift() as GraphQLBody<T>;
    if (this.failure) throw this.failure;
    let timer: NodeJS.Timeout | undefined;
    try {
      const item = await Promise.race([
        new Promise<unknown>((resolve) => (this.waiter = resolve)),
        new Promise<never>((_resolve, reject) => {
          timer = setTimeout(() => reject(new Error(`no event within ${timeoutMs} ms`)), timeoutMs);
        }),
      ]);
      // Read again: it may have been set while this call waited (a read TypeScript cannot narrow).
      const failure = this.failed();
      if (item === undefined && failure) throw failure;
      return item as GraphQLBody<T>;
    } finally {
      clearTimeout(timer);
      this.waiter = undefined;
    }
  }
}

/**
 * A subscription over server-sent events (POST /graphql, Accept: text/event-stream), read the way
 * a browser's EventSource would: `event: next` frames with JSON data. Resolves once the response
 * headers are in, which the server sends after the subscription's LISTEN is in place.
 */
export async function sseSubscribe(
  url: string,
  query: string,
  variables: Record<string, unknown> = {},
  token: string | null = ADMIN_TOKEN,
): Promise<ResultStream & { status: number; headers: Record<string, string | string[] | undefined>; body?: unknown }> {
  const abort = new AbortController();
  const response = await request(`${url}/graphql`, {
    method: 'POST',
    headers: { accept: 'text/event-stream', 'content-type': 'application/json', ...(token ? { authorization: `Bearer ${token}` } : {}) },
    body: JSON.stringify({ query, variables }),
    signal: abort.signal,
  });
  if (!String(response.headers['content-type']).startsWith('text/event-stream')) {
    return {
      status: response.statusCode,
      headers: response.headers,
      body: await response.body.json(),
      next: () => Promise.reject(new Error(`no stream: HTTP ${response.statusCode}`)),
      close: () => Promise.resolve(),
    };
  }
  const inbox = new Inbox();
  void (async () => {
    let buffer = '';
    try {
      for await (const chunk of response.body) {
        buffer += (chunk as Buffer).toString('utf8');
        let end: number;
        while ((end = buffer.indexOf('\n\n')) >= 0) {
          const frame = buffer.slice(0, end);
          buffer = buffer.slice(end + 2);
          const lines = frame.split('\n');
          const event = lines
            .find((l) => l.startsWith('event:'))
            ?.slice(6)
            .trim();
          const data = lines
            .filter((l) => l.startsWith('data:'))
            .map((l) => l.slice(5).trim())
            .join('\n');
          if (event === 'next') inbox.push(JSON.parse(data));
          if (event === 'complete') inbox.fail(new Error('the stream completed'));
        }
      }
      inbox.fail(new Error('the stream ended'));
    } catch (error) {
      inbox.fail(error as Error);
    }
  })();
  return {
    status: response.statusCode,
    headers: response.headers,
    next: (timeoutMs) => inbox.next(timeoutMs),
    close() {
      abort.abort();
      return Promise.resolve();
    },
  };
}

/** A graphql-ws client (graphql-transport-ws over the `ws` package), token in connectionParams. */
export function wsClient(url: string, token: string | null = ADMIN_TOKEN): Client {
  return createClient({
    url: `${url.replace(/^http/, 'ws')}/graphql`,
    webSocketImpl: WebSocket,
    connectionParams: token ? { authorization: `Bearer ${token}` } : {},
    retryAttempts: 0,
    lazy: true,
  });
}

/** One subscription on a graphql-ws client, pushed into a queue. */
export function wsSubscribe(client: Client, query: string, variables: Record<string, unknown> = {}): ResultStream {
  const inbox = new Inbox();
  const unsubscribe = client.subscribe(
    { query, variables },
    {
      next: (value) => inbox.push(value),
      error: (error) => inbox.fail(error instanceof Error ? error : new Error(JSON.stringify(error))),
      complete: () => inbox.fail(new Error('the subscription completed')),
    },
  );
  return {
    next: (timeoutMs) => inbox.next(timeoutMs),
    close: () => Promise.resolve(unsubscribe()),
  };
}

/** Opens a raw graphql-transport-ws socket, sends connection_init, and reports how it closed. */
export function wsConnectionOutcome(
  url: string,
  payload: Record<string, unknown> | undefined,
  headers: Record<string, string> = {},
): Promise<{ code: number; reason: string; acked: boolean }> {
  return new Promise((resolve, reject) => {
    const socket = new WebSocket(`${url.replace(/^http/, 'ws')}/graphql`, 'graphql-transport-ws', { headers });
    let acked = false;
    socket.on('open', () => socket.send(JSON.stringify({ type: 'connection_init', ...(payload ? { payload } : {}) })));
    socket.on('message', (data) => {
      if ((JSON.parse(Buffer.isBuffer(data) ? data.toString('utf8') : '{}') as { type?: string }).type === 'connection_ack') {
        acked = true;
        socket.close(1000, 'done');
      }
    });
    socket.on('close', (code, reason) => resolve({ code, reason: String(reason), acked }));
    socket.on('error', reject);
  });
}

/** Polls `check` until it is true (or fails after `timeoutMs`). */
export async function until(check: () => boolean | Promise<boolean>, what: string, timeoutMs = TIMEOUT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
}

/** One container that runs until it is stopped (and stops at once on TERM). */
export const SLEEPER_COMPOSE = `services:\n  sleeper:\n    image: ${TEST_IMAGE}\n    command: sh -c 'trap "exit 0" TERM; while :; do sleep 0.1; done'\n`;

/** Makes the sleeper app; with `running`, resolves once its service reports running. */
export async function sleeperApp(t: TestApp, options: { running?: boolean } = {}): Promise<{ appId: number; serviceId: number }> {
  const app = await t.request<Identified>('POST', '/apps', { body: { compose_yaml: SLEEPER_COMPOSE } });
  expect(app.status).toBe(200);
  const [service] = (await t.request<{ id: number }[]>('GET', `/apps/${app.body.id}/services`)).body;
  if (options.running) {
    await until(
      async () =>
        (await t.request<{ sub_state: string }>('GET', `/apps/${app.body.id}/services/${service.id}`)).body.sub_state === 'running',
      'the container to run',
    );
  }
  return { appId: app.body.id, serviceId: service.id };
}

/**
 * The id of the app's one container. By the app's id and this test app's instance: test files run
 * at once on one engine, and each numbers its apps from 1.
 */
export async function appContainerId(t: TestApp, appId: number): Promise<string> {
  const docker = testDockerClient();
  try {
    const labels = { 'platform.instance': await instanceId(t), 'platform.app': String(appId) };
    const containers = await docker.listContainers({ all: true, labels });
    expect(containers).toHaveLength(1);
    return containers[0].Id;
  } finally {
    await docker.close();
  }
}
