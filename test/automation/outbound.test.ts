import { expect } from '@jest/globals';
import { readFileSync, rmSync } from 'node:fs';
import path from 'node:path';
import Ajv from 'ajv';
import { Client } from 'pg';
import { makeGitRepo, pmx } from '../helpers/git';
import { startTestApp, type TestApp } from '../helpers/app';
import { TestReceiver, verify, type Behaviour } from './receiver';

interface Delivery {
  id: number;
  event_id: string;
  event_type: string;
  attempt: number;
  status: string;
  response_code: number | null;
  duration_ms: number | null;
  response_excerpt: string | null;
  error: string | null;
  at: string;
}

/** A template repo whose directory is gone: each reload fails (502), a template_repo.reload_failed event. */
async function failingRepo(t: TestApp): Promise<() => Promise<void>> {
  const dir = makeGitRepo({ 'a.pmx': pmx('A') });
  const created = await t.request<{ id: number }>('POST', '/template_repos', { body: { name: dir } });
  expect(created.status).toBe(200);
  rmSync(dir, { recursive: true, force: true });
  return async () => {
    expect((await t.request('POST', `/template_repos/${created.body.id}`)).status).toBe(502);
  };
}

async function subscribe(t: TestApp, receiver: TestReceiver, url = receiver.url): Promise<number> {
  const res = await t.request<{ secret: string; subscription: { id: number } }>('POST', '/event_subscriptions', {
    body: { url, event_types: ['template_repo.reload_failed', 'deployment.failed'] },
  });
  expect(res.status).toBe(201);
  receiver.secret = res.body.secret;
  return res.body.subscription.id;
}

async function deliveries(t: TestApp, id: number): Promise<Delivery[]> {
  return (await t.request<Delivery[]>('GET', `/event_subscriptions/${id}/deliveries`)).body;
}

/** Waits (the deliveries are asynchronous) until the log satisfies `check`; the overall timeout is only a safety net. */
async function logUntil(t: TestApp, id: number, check: (log: Delivery[]) => boolean, what: string): Promise<Delivery[]> {
  const deadline = Date.now() + 60_000;
  for (;;) {
    const log = await deliveries(t, id);
    if (check(log)) return log;
    if (Date.now() > deadline) throw new Error(`${what}: not within 60 s; log ${JSON.stringify(log)}`);
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
}

const ENV = {
  METRICS_ON_MAIN_PORT: 'true',
  WEBHOOK_ALLOW_PRIVATE: 'true',
  WEBHOOK_RETRY_DELAY_SECONDS: '1',
  WEBHOOK_TIMEOUT_MS: '1500',
  WEBHOOK_RESCUE_SECONDS: '1',
};

describe('events out: signed deliveries to subscribed URLs', () => {
  let t: TestApp;
  const receivers: TestReceiver[] = [];
  const receiver = async (behaviour?: Behaviour) => {
    const r = await TestReceiver.start(behaviour);
    receivers.push(r);
    return r;
  };
  beforeAll(async () => {
    t = await startTestApp(ENV);
  });
  afterAll(async () => {
    await Promise.all(receivers.map((r) => r.close()));
    await t.close();
  });

  test('a subscribed receiver gets the event signed over timestamp and body, and the log says so', async () => {
    const r = await receiver();
    const id = await subscribe(t, r);
    const reload = await failingRepo(t);
    await reload();
    await r.until((got) => got.length === 1, 'one delivery');
    const [got] = r.received;
    expect(got.verified).toBe(true);
    expect(got.json).toEqual({
      id: expect.stringMatching(/^[0-9a-f-]{36}$/),
      type: 'template_repo.reload_failed',
      occurredAt: expect.stringMatching(/Z$/),
      data: { templateRepoId: expect.any(Number), error: expect.stringContaining('cannot be read') },
    });
    // The payload is what docs/events.schema.json documents.
    const validate = new Ajv({ validateFormats: false }).compile(
      JSON.parse(readFileSync(path.join(__dirname, '../../docs/events.schema.json'), 'utf8')) as object,
    );
    expect(validate(got.json) ? [] : validate.errors).toEqual([]);
    expect(got.headers).toMatchObject({
      'content-type': 'application/json',
      'x-platform-event': 'template_repo.reload_failed',
      'x-platform-delivery': got.json.id,
      'user-agent': 'platform-webhooks/1',
    });
    const log = await logUntil(t, id, (l) => l.length === 1, 'the delivery logged');
    expect(log).toEqual([
      {
        id: expect.any(Number),
        event_id: got.json.id,
        event_type: 'template_repo.reload_failed',
        attempt: 1,
        status: 'delivered',
        response_code: 200,
        duration_ms: expect.any(Number),
        response_excerpt: 'ok',
        error: null,
        at: expect.stringMatching(/Z$/),
      },
    ]);
    // A forged signature does not verify (the receiver's own check).
    got.headers['x-platform-signature'] = `sha256=${'0'.repeat(64)}`;
    expect(verify(r.secret, got.headers, got.body)).toBe(false);

    // Resend: the same event again, a second attempt in the log.
    expect((await t.request('POST', `/event_deliveries/${log[0].id}/resend`)).status).toBe(200);
    await r.until((all) => all.length === 2, 'the resent delivery');
    expect(r.received[1].json.id).toBe(got.json.id);
    expect((await logUntil(t, id, (l) => l.length === 2, 'the resend logged')).map((d) => [d.attempt, d.status])).toEqual([
      [2, 'delivered'],
      [1, 'delivered'],
    ]);
    await t.request('DELETE', `/event_subscriptions/${id}`);
  });

  test('/metrics counts each attempt by outcome, and shows the queues by state', async () => {
    const metrics = async () => (await t.request('GET', '/metrics')).text;
    const attempts = async () => {
      const text = await metrics();
      const count = (outcome: string) =>
        Number(new RegExp(`^webhook_delivery_duration_seconds_count\\{outcome="${outcome}"\\} (\\d+)$`, 'm').exec(text)?.[1] ?? 0);
      return { delivered: count('delivered'), failed: count('failed') };
    };
    const before = await attempts();
    const r = await receiver((n) => (n === 0 ? { status: 503, body: 'later' } : { status: 200, body: 'ok' }));
    const id = await subscribe(t, r);
    await (
      await failingRepo(t)
    )();
    await logUntil(t, id, (l) => l.length === 2, 'both attempts logged');
    const after = await attempts();
    expect({ delivered: after.delivered - before.delivered, failed: after.failed - before.failed }).toEqual({ delivered: 1, failed: 1 });
    const queues = [...(await metrics()).matchAll(/^job_queue_jobs\{queue="([^"]+)",state="([^"]+)"\} (\d+)$/gm)].map((m) => [m[1], m[2]]);
    expect(queues.sort()).toEqual([
      ['event-delivery', 'active'],
      ['event-delivery', 'waiting'],
      ['hook-action', 'active'],
      ['hook-action', 'waiting'],
    ]);
    await t.request('DELETE', `/event_subscriptions/${id}`);
  });

  test('a receiver that answers 500 then 200 gets the event again, with backoff', async () => {
    const r = await receiver((n) => (n === 0 ? { status: 500, body: 'boom' } : { status: 200, body: 'fine' }));
    const id = await subscribe(t, r);
    await (
      await failingRepo(t)
    )();
    await r.until((got) => got.length === 2, 'the retry');
    expect(r.received[1].json.id).toBe(r.received[0].json.id);
    const log = await logUntil(t, id, (l) => l.length === 2, 'both attempts logged');
    expect(log.map((d) => [d.attempt, d.status, d.response_code, d.response_excerpt])).toEqual([
      [2, 'delivered', 200, 'fine'],
      [1, 'failed', 500, 'boom'],
    ]);
    await t.request('DELETE', `/event_subscriptions/${id}`);
  });

  test('a receiver that answers 410 is disabled and gets nothing more', async () => {
    const r = await receiver(() => ({ status: 410, body: 'gone' }));
    const id = await subscribe(t, r);
    const reload = await failingRepo(t);
    await reload();
    await logUntil(t, id, (l) => l.length === 1, 'the 410 logged');
    const sub = await t.request<{ enabled: boolean; disabled_reason: string }>('GET', `/event_subscriptions/${id}`);
    expect(sub.body).toMatchObject({ enabled: false, disabled_reason: expect.stringMatching(/^the receiver answered 410 Gone at .*Z$/) });
    await reload();
    // A second subscription on the same event type sees the second event: by then the first would have had it too.
    const witness = await receiver();
    await subscribe(t, witness);
    await reload();
    await witness.until((got) => got.length === 1, 'the witness delivery');
    expect(r.received).toHaveLength(1);
    expect((await deliveries(t, id)).map((d) => [d.status, d.response_code])).toEqual([['gone', 410]]);
  });

  test('a receiver that hangs is given up on at the deadline, and the attempt is logged', async () => {
    const r = await receiver((n) => (n === 0 ? 'hang' : { status: 200, body: 'late but fine' }));
    const id = await subscribe(t, r);
    await (
      await failingRepo(t)
    )();
    const log = await logUntil(t, id, (l) => l.some((d) => d.status === 'delivered'), 'the retry after the hang');
    expect(log.map((d) => [d.attempt, d.status, d.response_code, d.error])).toEqual([
      [2, 'delivered', 200, null],
      [1, 'failed', null, 'no answer within 1500 ms'],
    ]);
    await t.request('DELETE', `/event_subscriptions/${id}`);
  });

  test('a redirect to a metadata address is refused, and so is such a URL outright', async () => {
    const r = await receiver(() => ({ status: 307, headers: { location: 'http://169.254.169.254/latest/meta-data/' } }));
    const id = await subscribe(t, r);
    await (
      await failingRepo(t)
    )();
    const log = await logUntil(t, id, (l) => l.length >= 1, 'the refused attempt');
    expect(log[log.length - 1]).toMatchObject({
      attempt: 1,
      status: 'failed',
      response_code: null,
      error: 'refused by the outbound policy (link-local, metadata or, unless allowed, private address)',
    });
    await t.request('DELETE', `/event_subscriptions/${id}`);
    const refused = await t.request('POST', '/event_subscriptions', {
      body: { url: 'http://169.254.169.254/latest/meta-data/', event_types: ['deployment.failed'] },
    });
    expect(refused).toMatchObject({
      status: 422,
      body: { code: 422, message: 'url must not name a link-local or metadata address', fields: 'url' },
    });
    const unknown = await t.request('POST', '/event_subscriptions', { body: { url: r.url, event_types: ['nope'] } });
    expect(unknown).toMatchObject({ status: 422, body: { code: 422, message: 'unknown event types: nope', fields: 'event_types' } });
  });

  test('private addresses are refused unless the operator allows them', async () => {
    const strict = await startTestApp({ ...ENV, WEBHOOK_ALLOW_PRIVATE: 'false' });
    try {
      const r = await receiver();
      const id = await subscribe(strict, r);
      await (
        await failingRepo(strict)
      )();
      const log = await logUntil(strict, id, (l) => l.length >= 1, 'the refused attempt');
      expect(log[log.length - 1]).toMatchObject({ status: 'failed', error: expect.stringContaining('refused by the outbound policy') });
      expect(r.received).toEqual([]);
    } finally {
      await strict.close();
    }
  });

  test('subscriptions are for admins only', async () => {
    const token = await t.graphql<{ createApiToken: { token: string } }>(
      'mutation { createApiToken(input: { name: "deployer", scopes: [deploy] }) { ... on IssuedApiToken { token } } }',
    );
    const res = await t.request('GET', '/event_subscriptions', { token: token.body.data.createApiToken.token });
    expect(res).toMatchObject({ status: 403, body: { code: 403, message: 'this token may not use Query.eventSubscriptions', fields: '' } });
  });
});

describe('events out: how long a failing receiver is tried', () => {
  let t: TestApp;
  let r: TestReceiver;
  beforeAll(async () => {
    // The defaults of WEBHOOK_RETRY_DELAY_SECONDS and WEBHOOK_RETRY_LIMIT.
    t = await startTestApp({ WEBHOOK_ALLOW_PRIVATE: 'true' });
    r = await TestReceiver.start(() => ({ status: 503, body: 'down' }));
  });
  afterAll(async () => {
    await r.close();
    await t.close();
  });

  test('with the defaults, retries with backoff and jitter span between 11 and 23 hours: up to a day', async () => {
    const id = await subscribe(t, r);
    await (
      await failingRepo(t)
    )();
    await logUntil(t, id, (l) => l.length === 1 && l[0].status === 'failed', 'the first attempt failed');
    const db = new Client({ connectionString: t.config.databaseUrl });
    await db.connect();
    try {
      const { rows } = await db.query<{ state: string; retry_limit: number; retry_delay: number; retry_backoff: boolean }>(
        `select state, retry_limit, retry_delay, retry_backoff from pgboss.job where name = 'event-delivery'`,
      );
      expect(rows).toEqual([{ state: 'retry', retry_limit: 13, retry_delay: 5, retry_backoff: true }]);
      // pg-boss waits retry_delay * 2^n * (1 + random()) before retry n+1 (n from 0): the schedule's bounds.
      const [{ retry_limit: limit, retry_delay: delay }] = rows;
      const shortest = Array.from({ length: limit }, (_, n) => delay * 2 ** n).reduce((a, b) => a + b, 0);
      expect([shortest / 3600, (2 * shortest) / 3600].map((hours) => Math.round(hours * 10) / 10)).toEqual([11.4, 22.8]);
    } finally {
      await db.end();
    }
  });
});
