import { expect } from '@jest/globals';
import { rmSync } from 'node:fs';
import type { ServerResponse } from 'node:http';
import { EventSource } from 'eventsource';
import { createClient as createSseClient } from 'graphql-sse';
import { createClient as createWsClient } from 'graphql-ws';
import WebSocket from 'ws';
import { startAgent, startFakeAdapter, type RecordedCall, type RunningAgent } from '../agent/agent-harness';
import { until, wsConnectionOutcome } from '../events/clients';
import { makeGitRepo, pmx } from '../helpers/git';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import type { Identified } from '../helpers/bodies';

const ISO = expect.stringMatching(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);

const DEPLOYMENT_STATUS = `subscription Status($targetId: Int!, $id: Int!) {
  deploymentStatusChanged(targetId: $targetId, id: $id) { targetId deploymentId status { services { actualState } } error }
}`;

const TICKET = 'mutation { createSubscriptionTicket { __typename ... on SubscriptionTicket { ticket expiresAt } } }';

/**
 * Subscriptions as a page would take them: graphql-sse's client in both modes, an EventSource
 * (the `eventsource` package, the WHATWG API) and graphql-ws, the last two authenticated with a
 * subscription ticket instead of a token. The events come from a real agent whose adapter is a
 * fake (an external orchestrator cannot run here): its services report the state the test sets.
 *
 * No retries: a run once met a status half old and half new as its second event (the poller's
 * first read, started together with the subscription's own, straddled the change the test made on
 * seeing the first). The subscription's read now seeds the poller, which asks one interval later.
 */

describe('subscriptions from browser-style clients', () => {
  let t: TestApp;
  let adapter: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;
  let repoDir: string;
  let actualState = 'pending';
  /** The services whose state the agent asked the adapter for, in order. */
  const reads: string[] = [];
  /** Each next poll the deployment poller armed (on a real timer): for which deployment, how far ahead. */
  const armed: { targetId: number; id: number; ms: number }[] = [];
  let targetId: number;
  let templateId: number;
  let vars: { targetId: number; id: number };
  const event = (state: string) => ({
    data: {
      deploymentStatusChanged: {
        targetId: vars.targetId,
        deploymentId: vars.id,
        status: { services: [{ actualState: state }, { actualState: state }] },
        error: null,
      },
    },
  });

  beforeAll(async () => {
    t = await startTestApp(
      {},
      {
        events: {
          deploymentPollSchedule: (poll, ms, deployment) => {
            armed.push({ ...deployment, ms });
            const timer = setTimeout(poll, ms);
            return () => clearTimeout(timer);
          },
        },
      },
    );
    adapter = await startFakeAdapter((call: RecordedCall, res: ServerResponse) => {
      if (call.method !== 'GET' || !call.path.startsWith('/v1/services/')) return false;
      reads.push(decodeURIComponent(call.path.slice(13)));
      res.writeHead(200, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ id: decodeURIComponent(call.path.slice(13)), actualState }));
      return true;
    });
    agent = await startAgent({ env: { AGENT_ADAPTER: 'http', ADAPTER_URL: adapter.url } });
    repoDir = makeGitRepo({ 'wp.pmx': pmx('WordPress') });
    await t.request('POST', '/template_repos', { body: { name: repoDir } });
    templateId = (await t.request<Identified[]>('GET', '/templates')).body[0].id;
    targetId = (await t.request<Identified>('POST', '/deployment_targets', { body: { name: 'k8s', auth_blob: agent.token } })).body.id;
  }, 120_000);

  // Each streaming test watches a deployment of its own, from its first status on.
  beforeEach(async () => {
    actualState = 'pending';
    const id = (await t.request<Identified>('POST', `/deployment_targets/${targetId}/deployments`, { body: { template_id: templateId } }))
      .body.id;
    vars = { targetId, id };
  });

  afterAll(async () => {
    await t?.close();
    await agent?.close();
    await adapter?.close();
    if (repoDir) rmSync(repoDir, { recursive: true, force: true });
  });

  async function ticket(token: string = ADMIN_TOKEN): Promise<string> {
    const res = await t.graphql<{ createSubscriptionTicket: { ticket: string } }>(TICKET, {}, token);
    expect(res.body.data.createSubscriptionTicket).toEqual({
      __typename: 'SubscriptionTicket',
      ticket: expect.stringMatching(/^pst_/),
      expiresAt: ISO,
    });
    return res.body.data.createSubscriptionTicket.ticket;
  }

  test.each([false, true])(
    'graphql-sse client, singleConnection %s, with a bearer token: the status, then its change',
    async (singleConnection) => {
      const client = createSseClient({
        url: `${t.url}/graphql/stream`,
        singleConnection,
        headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
        retryAttempts: 0,
      });
      try {
        const results = client.iterate({ query: DEPLOYMENT_STATUS, variables: vars });
        expect((await results.next()).value).toEqual(event('pending'));
        actualState = 'running';
        expect((await results.next()).value).toEqual(event('running'));
        await results.return?.();
      } finally {
        client.dispose();
      }
    },
    60_000,
  );

  test('a new subscription reads the status once; the poller asks again one interval later, and publishes the change', async () => {
    const query = `subscription Status($targetId: Int!, $id: Int!) {
      deploymentStatusChanged(targetId: $targetId, id: $id) { status { services { orchestratorId actualState } } }
    }`;
    const client = createSseClient({
      url: `${t.url}/graphql/stream`,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      retryAttempts: 0,
    });
    try {
      const before = reads.length;
      const results = client.iterate({ query, variables: vars });
      const first = (await results.next()).value as {
        data: { deploymentStatusChanged: { status: { services: { orchestratorId: string }[] } } };
      };
      const own = new Set(first.data.deploymentStatusChanged.status.services.map((s) => s.orchestratorId));
      expect(own.size).toBe(2);
      // Other tests' pollers may still be winding down: count the reads of this deployment only.
      const ownReads = () => reads.slice(before).filter((id) => own.has(id)).length;
      // The poller's first turn ends by arming its next poll, one interval (2 s) ahead: it must
      // not have read the status by then. Before the fix it read at once, beside the
      // subscription's own read (4 requests, not 2).
      const mine = () => armed.filter((a) => a.targetId === vars.targetId && a.id === vars.id);
      await until(() => mine().length > 0, "the poller's first turn");
      expect(ownReads()).toBe(2);
      expect(mine()[0]).toEqual({ ...vars, ms: 2000 });
      await until(() => ownReads() >= 4, "the poller's first read");
      actualState = 'running';
      expect((await results.next()).value).toEqual({
        data: {
          deploymentStatusChanged: { status: { services: [...own].map((orchestratorId) => ({ orchestratorId, actualState: 'running' })) } },
        },
      });
      await results.return?.();
    } finally {
      client.dispose();
    }
  }, 60_000);

  test('graphql-sse client in single connection mode runs queries too, and refuses a missing token', async () => {
    const client = createSseClient({
      url: `${t.url}/graphql/stream`,
      singleConnection: true,
      headers: { authorization: `Bearer ${ADMIN_TOKEN}` },
      retryAttempts: 0,
    });
    try {
      const results = client.iterate({ query: '{ me { username } }' });
      expect((await results.next()).value).toEqual({ data: { me: { username: 'admin' } } });
    } finally {
      client.dispose();
    }
    const anonymous = createSseClient({ url: `${t.url}/graphql/stream`, singleConnection: true, retryAttempts: 0 });
    await expect(anonymous.iterate({ query: '{ me { username } }' }).next()).rejects.toThrow(/401/);
    anonymous.dispose();
  });

  test('EventSource: a ticket in the URL instead of the token; it works once', async () => {
    const first = await ticket();
    const url = `${t.url}/graphql?${new URLSearchParams({ query: DEPLOYMENT_STATUS, variables: JSON.stringify(vars), ticket: first })}`;
    const source = new EventSource(url);
    const events: unknown[] = [];
    source.addEventListener('next', (message) => events.push(JSON.parse(String(message.data))));
    try {
      await until(() => events.length >= 1, 'the first event');
      expect(events[0]).toEqual(event('pending'));
      actualState = 'running';
      await until(() => events.length >= 2, 'the change');
      expect(events[1]).toEqual(event('running'));
    } finally {
      source.close();
    }

    // The same ticket again: used up, 401, and EventSource gives up (no reconnect on 401).
    const again = new EventSource(url);
    const failure = await new Promise<{ code?: number }>((resolve) => (again.onerror = (error) => resolve(error)));
    expect(failure.code).toBe(401);
    expect(again.readyState).toBe(EventSource.CLOSED);
    again.close();
  }, 60_000);

  test('a ticket is void once expired, once its token is revoked, and never takes the place of a token elsewhere', async () => {
    const sse = (ticketValue: string) =>
      t.request('GET', `/graphql?${new URLSearchParams({ query: '{ me { username } }', ticket: ticketValue })}`, {
        token: null,
        headers: { accept: 'text/event-stream' },
      });

    // Expired: moved into the past in the database rather than waiting out the TTL.
    const expired = await ticket();
    await t.app.orm.em.getConnection().execute("update subscription_tickets set expires_at = now() - interval '1 second'");
    expect((await sse(expired)).status).toBe(401);

    // Revoked: a ticket from a read token dies with the token.
    const issued = await t.graphql<{ createApiToken: { id: number; token: string } }>(
      'mutation { createApiToken(input: {name: "page", scopes: [read]}) { ... on IssuedApiToken { id: databaseId token } } }',
    );
    const { id, token } = issued.body.data.createApiToken;
    const fromRevoked = await ticket(token);
    await t.graphql(`mutation { revokeApiToken(input: {id: ${id}}) { __typename } }`);
    const refused = await sse(fromRevoked);
    expect(refused.status).toBe(401);
    expect(refused.body).toEqual({ code: 401, message: 'the subscription ticket is not valid (unknown, used or expired)', fields: '' });

    // Valid, on a GET: the issuer's name, read scope only.
    const ok = await sse(await ticket());
    expect(ok.status).toBe(200);
    expect(ok.text).toContain('event: next\ndata: {"data":{"me":{"username":"admin"}}}');

    // Not on a POST, and never as a bearer token.
    const viaPost = await t.request('POST', `/graphql?ticket=${await ticket()}`, { token: null, body: { query: '{ me { username } }' } });
    expect(viaPost.status).toBe(401);
    expect((await t.request('GET', '/apps', { token: await ticket() })).status).toBe(401);
  });

  test('graphql-ws: a ticket in connectionParams (fetched per connection), read scope only', async () => {
    const client = createWsClient({
      url: `${t.url.replace(/^http/, 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: async () => ({ ticket: await ticket() }),
      retryAttempts: 0,
      lazy: true,
    });
    try {
      const results = client.iterate({ query: DEPLOYMENT_STATUS, variables: vars });
      expect((await results.next()).value).toEqual(event('pending'));
      await results.return?.();
      // The ticket's identity reads; it cannot write.
      const write = client.iterate({
        query: 'mutation { createRegistry(input: {name: "x", endpointUrl: "https://x.example"}) { __typename } }',
      });
      expect((await write.next()).value).toEqual({
        data: null,
        errors: [expect.objectContaining({ extensions: expect.objectContaining({ code: 'FORBIDDEN' }) })],
      });
    } finally {
      await client.dispose();
    }
    // A used ticket closes the socket with 4401.
    const used = await ticket();
    expect(await wsConnectionOutcome(t.url, { ticket: used })).toMatchObject({ acked: true });
    expect(await wsConnectionOutcome(t.url, { ticket: used })).toEqual({
      code: 4401,
      reason: 'the subscription ticket is not valid (unknown, used or expired)',
      acked: false,
    });
  }, 60_000);
});
