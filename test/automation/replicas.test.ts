import { expect } from '@jest/globals';
import { rmSync } from 'node:fs';
import { request } from 'undici';
import { ADMIN_TOKEN } from '../helpers/app';
import { makeGitRepo, pmx } from '../helpers/git';
import { startReplicas, type Replicas } from '../events/replicas';
import { TestReceiver } from './receiver';

const ENV = { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_DELAY_SECONDS: '1' };

async function api<T>(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await request(`${url}${path}`, {
    method,
    headers: { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.body.text();
  return { status: res.statusCode, body: (text ? JSON.parse(text) : undefined) as T };
}

async function until(check: () => Promise<boolean> | boolean, what: string): Promise<void> {
  const deadline = Date.now() + 60_000;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error(`${what}: not within 60 s`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** Two replicas of the service on one database, as behind a load balancer. */
describe('two replicas on one database deliver each event once', () => {
  let cluster: Replicas;
  let receiver: TestReceiver;
  let subscription: number;

  beforeAll(async () => {
    cluster = await startReplicas(2, {}, ENV);
    receiver = await TestReceiver.start();
    const made = await api<{ secret: string; subscription: { id: number } }>(cluster.replicas[0].url, 'POST', '/event_subscriptions', {
      url: receiver.url,
      event_types: ['template_repo.reload_failed', 'service.state_changed'],
    });
    expect(made.status).toBe(201);
    receiver.secret = made.body.secret;
    subscription = made.body.subscription.id;
  });
  afterAll(async () => {
    await receiver.close();
    await cluster.close();
  });

  const pending = async () =>
    (await api<{ pending: number }>(cluster.replicas[1].url, 'GET', `/event_subscriptions/${subscription}`)).body.pending;

  test('events made on either replica reach the receiver once each', async () => {
    const [a, b] = cluster.replicas;
    const dir = makeGitRepo({ 'a.pmx': pmx('A') });
    const repo = await api<{ id: number }>(a.url, 'POST', '/template_repos', { name: dir });
    rmSync(dir, { recursive: true, force: true });
    for (let i = 0; i < 10; i++) {
      const via = i % 2 === 0 ? a : b;
      expect((await api(via.url, 'POST', `/template_repos/${repo.body.id}`)).status).toBe(502);
    }
    await receiver.until((got) => got.length >= 10, 'ten deliveries');
    // Nothing is left to deliver: no replica holds a second copy of any of them.
    await until(async () => (await pending()) === 0, 'the queue to drain');
    const ids = receiver.received.map((r) => r.json.id);
    expect(ids).toHaveLength(10);
    expect(new Set(ids).size).toBe(10);
    expect(receiver.received.every((r) => r.verified)).toBe(true);
  });

  test('an event every replica hears (a service state over NOTIFY) is stored and delivered once', async () => {
    // Both replicas listen for service states once a subscription wants them (told over NOTIFY).
    await until(() => cluster.replicas.every((r) => r.app.deps.events.bus.subscriberCount('service_state') > 0), 'both replicas listening');
    const before = receiver.received.length;
    const state = { appId: 7, serviceId: 9, loadState: 'loaded', activeState: 'active', subState: 'running', at: new Date().toISOString() };
    await cluster.replicas[0].app.deps.events.bus.publish('service_state', state);
    await receiver.until((got) => got.length > before, 'the service state delivery');
    await until(async () => (await pending()) === 0, 'the queue to drain');
    const states = receiver.received.filter((r) => r.json.type === 'service.state_changed');
    expect(states.map((r) => r.json.data)).toEqual([state]);
  });
});
