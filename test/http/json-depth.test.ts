import { expect } from '@jest/globals';
import { request } from 'undici';
import { createClient } from 'graphql-ws';
import WebSocket from 'ws';
import { agentRequest, startAgent, type RunningAgent } from '../agent/agent-harness';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';

/** README "Limits": JSON nesting of an input, 64 levels; past it, 400. */
const LIMIT = 64;
const TOO_DEEP = { code: 400, message: 'the input is nested too deeply', fields: '' };

/**
 * JSON text of `levels` containers, one inside the other (arrays and objects in turn), around a
 * string: written out, since JSON.stringify itself runs out of stack on the deepest.
 */
function nest(levels: number): string {
  const open: string[] = [];
  const close: string[] = [];
  for (let i = levels - 1; i >= 0; i -= 1) {
    open.push(i % 2 === 0 ? '[' : '{"v":');
    close.unshift(i % 2 === 0 ? ']' : '}');
  }
  return `${open.join('')}"deep"${close.join('')}`;
}

/** An input of `levels` levels in all, as JSON text: the object itself, and `environment` nested below it. */
const input = (levels: number, extra: Record<string, unknown>) =>
  `${JSON.stringify(extra).slice(0, -1)},"environment":${nest(levels - 1)}}`;

describe('JSON nested deeper than the limit is a 400 at every door', () => {
  let t: TestApp;
  let agent: RunningAgent;

  beforeAll(async () => {
    t = await startTestApp({ DOCKER_HOST: 'unix:///nonexistent/docker.sock', LEGACY_UI_PORT: '1', LEGACY_UI_SCOPE: 'write' });
    agent = await startAgent();
  });
  afterAll(async () => {
    await t?.close();
    await agent?.close();
  });

  const COMPOSE = 'services: {}\n';
  /** GraphQL variables of `levels` levels: the variables object is the input, as a REST body is. */
  const variables = (levels: number) => `{"input":${input(levels - 1, { composeYaml: COMPOSE })}}`;
  const MUTATION = 'mutation($input: CreateAppInput!) { createApp(input: $input) { __typename ... on Error { message } } }';

  /**
   * What the deepest allowed input gets (it is refused for its content, not its depth), and the
   * one past it; and one far past it (20,000 levels, well within the body limit) the same way.
   */
  async function check(at: (levels: number) => Promise<{ status: number; body: unknown }>, allowed: unknown, far = 20_000) {
    expect(await at(LIMIT)).toEqual(allowed);
    expect(await at(LIMIT + 1)).toEqual({ status: 400, body: TOO_DEEP });
    expect(await at(far)).toEqual({ status: 400, body: TOO_DEEP });
  }

  test('interface A on the main listener (a JSON body)', async () => {
    await check(
      async (levels) => {
        const res = await t.request('POST', '/apps', { raw: input(levels, { compose_yaml: COMPOSE }) });
        return { status: res.status, body: res.body };
      },
      { status: 422, body: { code: 422, message: expect.stringContaining('environment'), fields: 'environment' } },
    );
  });

  test('the legacy UI listener: the same text rules as the main listener (a NUL, a name over 255 characters)', async () => {
    const send = async (name: string) => {
      const res = await request(`${t.legacyUrl}/registries`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ name, endpoint_url: 'https://127.0.0.1:9' }),
      });
      return { status: res.statusCode, body: await res.body.json() };
    };
    const before = (await t.request('GET', '/registries')).body;
    expect(await send('a\u0000b')).toEqual({
      status: 400,
      body: {
        code: 400,
        message: 'name must not contain a NUL character',
        fields: 'name',
        errors: { name: ['name must not contain a NUL character'] },
      },
    });
    expect(await send('n'.repeat(256))).toEqual({
      status: 422,
      body: {
        code: 422,
        message: 'name is longer than 255 characters',
        fields: 'name',
        errors: { name: ['name is longer than 255 characters'] },
      },
    });
    expect((await t.request('GET', '/registries')).body).toEqual(before);
  });

  test("the legacy UI listener (the original UI's JSON body)", async () => {
    await check(
      async (levels) => {
        const res = await request(`${t.legacyUrl}/apps`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: input(levels, { compose_yaml: COMPOSE }),
        });
        const { code, message, fields } = (await res.body.json()) as { code: number; message: string; fields: string };
        return { status: res.statusCode, body: { code, message, fields } };
      },
      { status: 422, body: { code: 422, message: expect.stringContaining('environment'), fields: 'environment' } },
    );
  });

  test("GraphQL over HTTP: a POST's variables, a batch's, and a GET's", async () => {
    const allowed = {
      status: 200,
      body: { data: { createApp: { __typename: 'ValidationError', message: expect.stringContaining('environment') } } },
    };
    await check(async (levels) => {
      const res = await t.request('POST', '/graphql', { raw: `{"query":${JSON.stringify(MUTATION)},"variables":${variables(levels)}}` });
      return { status: res.status, body: res.body };
    }, allowed);
    await check(
      async (levels) => {
        const res = await t.request('POST', '/graphql', {
          raw: `[{"query":${JSON.stringify(MUTATION)},"variables":${variables(levels)}}]`,
        });
        return { status: res.status, body: res.body };
      },
      { status: 200, body: [allowed.body] },
    );
    await check(
      async (levels) => {
        const res = await t.request(
          'GET',
          `/graphql?query=${encodeURIComponent('{ __typename }')}&variables=${encodeURIComponent(variables(levels))}`,
        );
        return { status: res.status, body: res.body };
      },
      { status: 200, body: { data: { __typename: 'Query' } } },
      // A URL has node's 16 KiB of headers.
      1_000,
    );
  });

  test('GraphQL over WebSocket: an operation whose variables are too deep is refused with the same error', async () => {
    const client = createClient({
      url: `${t.url.replace('http', 'ws')}/graphql`,
      webSocketImpl: WebSocket,
      connectionParams: { authorization: `Bearer ${ADMIN_TOKEN}` },
      retryAttempts: 0,
    });
    const run = async (levels: number) => {
      const results: unknown[] = [];
      try {
        for await (const result of client.iterate({ query: MUTATION, variables: JSON.parse(variables(levels)) as Record<string, unknown> }))
          results.push(result);
      } catch (errors) {
        results.push({ errors });
      }
      return results;
    };
    try {
      expect(await run(LIMIT)).toEqual([
        { data: { createApp: { __typename: 'ValidationError', message: expect.stringContaining('environment') } } },
      ]);
      const refused = [{ errors: [{ message: TOO_DEEP.message, extensions: { code: 'BAD_REQUEST', status: 400, fields: [] } }] }];
      expect(await run(LIMIT + 1)).toEqual(refused);
      // The client's JSON.stringify sets the ceiling here.
      expect(await run(2_000)).toEqual(refused);
    } finally {
      await client.dispose();
    }
  });

  test("the agent's interface B (a deployment's JSON body)", async () => {
    await check(
      async (levels) => {
        const res = await agentRequest(agent, 'POST', '/deployments', { raw: input(levels, { template: { name: 'deep', images: [] } }) });
        return { status: res.status, body: res.body };
      },
      { status: 422, body: expect.objectContaining({ code: 422 }) },
    );
  });
});
