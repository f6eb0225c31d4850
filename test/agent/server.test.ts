import { expect } from '@jest/globals';
import type { Adapter } from '../../src/agent/adapters/adapter';
import type { ErrorBody } from '../../src/errors';
import { agentRequest, startAgent, startFakeAdapter, type RunningAgent } from './agent-harness';

/** The agent's HTTP contract: auth, error bodies, sizes; the fake adapter stands for an external one. */
describe('agent HTTP contract', () => {
  let fake: Awaited<ReturnType<typeof startFakeAdapter>>;
  let agent: RunningAgent;

  beforeAll(async () => {
    fake = await startFakeAdapter();
    agent = await startAgent({ env: { ADAPTER_URL: fake.url } });
  });
  afterAll(async () => {
    await agent?.close();
    await fake?.close();
  });

  test('no credentials: 401 with a Basic challenge', async () => {
    const res = await agentRequest(agent, 'GET', '/deployments', { auth: null });
    expect(res.status).toBe(401);
    expect(res.headers['www-authenticate']).toMatch(/^Basic realm="platform-agent"/);
    expect(res.body).toEqual({ code: 401, message: 'Missing or wrong credentials.', fields: '' });
  });

  test('wrong password and wrong user: 401', async () => {
    const user = agent.app.credentials.username;
    for (const pair of [`${user}:wrong`, `someone:${agent.app.credentials.password}`, 'garbage']) {
      const res = await agentRequest(agent, 'GET', '/metadata', { auth: `Basic ${Buffer.from(pair).toString('base64')}` });
      expect(res.status).toBe(401);
    }
    expect((await agentRequest(agent, 'GET', '/metadata', { auth: 'Bearer abc' })).status).toBe(401);
  });

  test('a connection is kept open for 65 s between requests, as the service keeps its own', async () => {
    const res = await agentRequest(agent, 'GET', '/healthz', { auth: null });
    expect(res.headers['keep-alive']).toBe('timeout=65');
  });

  test('/healthz needs no credentials', async () => {
    const res = await agentRequest(agent, 'GET', '/healthz', { auth: null });
    expect(res).toMatchObject({ status: 200, body: { status: 'ok' } });
  });

  test('unknown deployment: 404; non-integer id: 400', async () => {
    expect(await pick(agentRequest(agent, 'GET', '/deployments/999999'))).toEqual({
      status: 404,
      body: { code: 404, message: 'deployment 999999 not found', fields: 'id' },
    });
    expect((await agentRequest(agent, 'DELETE', '/deployments/999999')).status).toBe(404);
    expect((await agentRequest(agent, 'POST', '/deployments/999999/redeploy')).status).toBe(404);
    expect(await pick(agentRequest(agent, 'GET', '/deployments/abc'))).toEqual({
      status: 400,
      body: { code: 400, message: 'The deployment id "abc" is not an integer.', fields: 'id' },
    });
  });

  test('unknown path 404, wrong method 405', async () => {
    expect(await pick(agentRequest(agent, 'GET', '/nope'))).toEqual({
      status: 404,
      body: { code: 404, message: 'No such path: /nope.', fields: '' },
    });
    const res = await agentRequest(agent, 'PUT', '/deployments');
    expect(res.status).toBe(405);
    expect(res.headers.allow).toBe('GET, POST');
    expect(res.body).toEqual({ code: 405, message: 'PUT is not allowed on /deployments.', fields: '' });
  });

  test('malformed JSON: 400', async () => {
    const res = await agentRequest(agent, 'POST', '/deployments', { raw: '{"template": "secret-excerpt" x' });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: 'The request body is not valid JSON at position 30.', fields: 'body' });
  });

  test('wrong types: 400 naming the fields', async () => {
    const res = await agentRequest(agent, 'POST', '/deployments', { body: { template: { images: 'wp' } } });
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: expect.stringContaining('template.images'), fields: 'template.images' });
    expect((await agentRequest(agent, 'POST', '/deployments', { body: [1] })).status).toBe(400);
  });

  test('invalid descriptor: 422 naming every offending field', async () => {
    const res = await agentRequest<ErrorBody>(agent, 'POST', '/deployments', {
      body: {
        template: {
          name: 'bad',
          images: [
            {
              name: 'web',
              links: [{ service: 'db' }],
              ports: [{ host_port: 80 }],
              volumes: [{ host_path: '/x' }],
              environment: [{ variable: 'A' }],
              deployment: { count: 0 },
            },
            { source: 'x' },
          ],
        },
        override: { images: [{ name: 'nothere' }] },
      },
    });
    expect(res.status).toBe(422);
    expect(res.body.code).toBe(422);
    expect(res.body.fields.split(',')).toEqual([
      'template.images[0].ports[0].container_port',
      'template.images[0].links[0].alias',
      'template.images[0].volumes[0].container_path',
      'template.images[0].environment[0].value',
      'template.images[0].deployment.count',
      'template.images[1].name',
    ]);
    expect(fake.calls.filter((call) => call.method === 'POST')).toEqual([]);
  });

  test('override naming no template image, or a link to no image: 422', async () => {
    const base = { name: 't', images: [{ name: 'web', source: 'x', links: [{ service: 'db', alias: 'db' }] }] };
    const link = await agentRequest(agent, 'POST', '/deployments', { body: { template: base } });
    expect(link.body).toEqual({
      code: 422,
      message: 'The deployment descriptor is invalid: template.images[0].links[0].service names no image of the template ("db").',
      fields: 'template.images[0].links[0].service',
    });
    const override = await agentRequest(agent, 'POST', '/deployments', {
      body: { template: { name: 't', images: [{ name: 'web' }] }, override: { images: [{ name: 'wbe' }] } },
    });
    expect(override.body).toEqual({
      code: 422,
      message: 'The deployment descriptor is invalid: override.images[0].name names no image of the template ("wbe").',
      fields: 'override.images[0].name',
    });
    const missing = await agentRequest(agent, 'POST', '/deployments', { body: {} });
    expect(missing.body).toEqual({ code: 422, message: 'The deployment descriptor is invalid: template is required.', fields: 'template' });
  });

  test('body over 1 MiB: 413', async () => {
    const res = await agentRequest(agent, 'POST', '/deployments', { raw: JSON.stringify({ pad: 'x'.repeat(1024 * 1024 + 10) }) });
    expect(res.status).toBe(413);
    expect(res.body).toEqual({ code: 413, message: 'The request body is larger than 1048576 bytes.', fields: 'body' });
  });
});

describe('agent error masking', () => {
  test('an unexpected error is a 500 "Unexpected error." without details', async () => {
    const broken: Adapter = {
      type: 'http',
      metadata: () => Promise.reject(new Error('internal detail that must not leak')),
      create: () => Promise.resolve([]),
      status: () => Promise.resolve([]),
      remove: () => Promise.resolve(),
      close: () => Promise.resolve(),
    };
    const agent = await startAgent({ adapter: broken });
    try {
      const res = await agentRequest(agent, 'GET', '/metadata');
      expect(res.status).toBe(500);
      expect(res.body).toEqual({ code: 500, message: 'Unexpected error.', fields: '' });
    } finally {
      await agent.close();
    }
  });
});

async function pick(response: Promise<{ status: number; body: unknown }>): Promise<{ status: number; body: unknown }> {
  const { status, body } = await response;
  return { status, body };
}
