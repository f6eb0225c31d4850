import { expect } from '@jest/globals';
import type { Client } from 'graphql-ws';
import type { GraphQLFieldResolver, GraphQLObjectType } from 'graphql';
import { getSchema } from '../../schema/index';
import { SERVICE_STATE_CHANNEL, type ServiceStateEvent } from '../../src/events/service-state-feed';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import { sseSubscribe, until, wsClient, wsSubscribe, type ResultStream } from './clients';

/** No such service: the events are published here, not by the engine follower, which never names it. */
const SERVICE_ID = 987_654;
const STATES = `subscription ($serviceId: Int!) {
  serviceStateChanged(serviceId: $serviceId) { serviceId activeState subState at }
}`;

const event = (subState: string, at: string): ServiceStateEvent => ({
  appId: 1,
  serviceId: SERVICE_ID,
  loadState: 'loaded',
  activeState: subState === 'running' ? 'active' : 'inactive',
  subState,
  at,
});
const delivered = (e: ServiceStateEvent) => ({
  data: { serviceStateChanged: { serviceId: SERVICE_ID, activeState: e.activeState, subState: e.subState, at: e.at } },
});

describe('subscribers of service states', () => {
  let t: TestApp;
  let reader: string;
  const streams: ResultStream[] = [];
  const clients: Client[] = [];

  beforeAll(async () => {
    t = await startTestApp();
    const issued = await t.graphql<{ createApiToken: { token: string } }>(
      'mutation($input: CreateApiTokenInput!) { createApiToken(input: $input) { ... on IssuedApiToken { token } } }',
      { input: { name: 'reader', scopes: ['read'] } },
    );
    reader = issued.body.data.createApiToken.token;
  });

  afterEach(async () => {
    await Promise.all(streams.splice(0).map((s) => s.close()));
    for (const client of clients.splice(0)) await client.dispose();
    await until(() => t.app.deps.events.bus.subscriberCount(SERVICE_STATE_CHANNEL) === 0, 'the subscribers to leave');
  });

  afterAll(() => t?.close());

  async function subscribe(token: string, over: 'sse' | 'ws'): Promise<ResultStream> {
    let stream: ResultStream;
    if (over === 'sse') {
      const sse = await sseSubscribe(t.url, STATES, { serviceId: SERVICE_ID }, token);
      expect(sse.status).toBe(200);
      stream = sse;
    } else {
      const client = wsClient(t.url, token);
      clients.push(client);
      stream = wsSubscribe(client, STATES, { serviceId: SERVICE_ID });
    }
    streams.push(stream);
    return stream;
  }

  /**
   * Each subscriber executed the subscription for each event on its own: 1,000 console tabs of one
   * document, 1,000 executions of the same selection per change. One execution now serves every
   * subscriber of the same document, variables and token scopes; a token of other scopes gets its own.
   */
  test('an event is executed once per distinct subscription, whatever the number of its subscribers', async () => {
    const field = (getSchema().getType('ServiceStateEvent') as GraphQLObjectType).getFields().subState;
    const resolve = field.resolve as GraphQLFieldResolver<unknown, unknown>;
    let executions = 0;
    field.resolve = (...args) => {
      executions++;
      return resolve(...args);
    };
    try {
      const admins = [];
      for (let i = 0; i < 6; i++) admins.push(await subscribe(ADMIN_TOKEN, i % 2 ? 'ws' : 'sse'));
      const readers = [await subscribe(reader, 'sse'), await subscribe(reader, 'ws')];
      await until(() => t.app.deps.events.bus.subscriberCount(SERVICE_STATE_CHANNEL) === 8, 'the subscribers');

      const stopped = event('exited', '2026-01-02T03:04:05.678Z');
      await t.app.deps.events.bus.publish(SERVICE_STATE_CHANNEL, stopped);
      for (const stream of [...admins, ...readers]) expect(await stream.next()).toEqual(delivered(stopped));
      // One for the admin token's six subscribers, one for the reader's two.
      expect(executions).toBe(2);
    } finally {
      field.resolve = resolve;
    }
  });

  /**
   * The engine follower states each change from its event; one that takes over from another replica
   * looks back over the last seconds and publishes those events again. A subscriber drops a state
   * older than the last it delivered (it would otherwise show a stopped service that runs).
   */
  test('a state older than the last delivered is dropped', async () => {
    const stream = await subscribe(ADMIN_TOKEN, 'sse');
    await until(() => t.app.deps.events.bus.subscriberCount(SERVICE_STATE_CHANNEL) === 1, 'the subscriber');
    const running = event('running', '2026-01-02T03:04:05.000Z');
    const stopped = event('exited', '2026-01-02T03:04:06.000Z');
    const again = event('running', '2026-01-02T03:04:07.000Z');
    for (const e of [running, stopped, running, stopped, again]) await t.app.deps.events.bus.publish(SERVICE_STATE_CHANNEL, e);
    expect(await stream.next()).toEqual(delivered(running));
    expect(await stream.next()).toEqual(delivered(stopped));
    expect(await stream.next()).toEqual(delivered(again));
  });
});
