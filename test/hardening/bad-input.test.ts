import { expect } from '@jest/globals';
import { connect } from 'node:net';
import { agentRequest, startAgent, type RunningAgent } from '../agent/agent-harness';
import { startTestApp, type TestApp } from '../helpers/app';
import type { RepoBody } from '../helpers/bodies';
import { makeGitRepo, pmx } from '../helpers/git';

/** Sends raw bytes and answers the raw response (status line, headers and body). */
function raw(url: string, bytes: string): Promise<{ status: number; headers: string; body: unknown }> {
  const { hostname, port } = new URL(url);
  return new Promise((resolve, reject) => {
    const socket = connect(Number(port), hostname, () => socket.write(bytes));
    let text = '';
    socket.on('data', (c: Buffer) => (text += c.toString('latin1')));
    socket.on('error', reject);
    socket.on('close', () => {
      const [head, body] = [text.slice(0, text.indexOf('\r\n\r\n')), text.slice(text.indexOf('\r\n\r\n') + 4)];
      let parsed: unknown = body;
      try {
        parsed = JSON.parse(body);
      } catch {
        // kept as text, so the assertion shows it
      }
      resolve({ status: Number(head.split(' ')[1]), headers: head, body: parsed });
    });
  });
}

let t: TestApp;
let agent: RunningAgent;
beforeAll(async () => {
  t = await startTestApp();
  agent = await startAgent();
});
afterAll(async () => {
  await t.close();
  await agent.close();
});

/** Fuzzed requests with NUL characters got 500s, and errors before routing were not JSON. */
describe('NUL characters', () => {
  test('GET /search?q=%00 is a 400 naming q', async () => {
    const res = await t.request('GET', '/search?q=%00');
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: 'q must not contain a NUL character', fields: 'q' });
  });

  test.each(['name', 'from', 'command', 'description'])('a NUL in a service %s is a 400 naming it', async (field) => {
    const body = { name: 'web', from: 'busybox', command: 'sleep 1', description: 'd', [field]: 'a\u0000b' };
    const res = await t.request('POST', '/apps/1/services', { body });
    expect(res.body).toEqual({ code: 400, message: `${field} must not contain a NUL character`, fields: field });
  });

  test('in GraphQL variables and literals too', async () => {
    const vars = await t.graphql('query($q: String!) { search(q: $q) { items { name } } }', { q: 'x\u0000' });
    expect(vars.body).toEqual({ code: 400, message: 'q must not contain a NUL character', fields: 'q' });
    const literal = await t.graphql('{ search(q: "x\\u0000") { items { name } } }');
    // A validation error: graphql-over-http answers it 200 to application/json clients.
    expect(literal.body).toEqual({
      errors: [
        expect.objectContaining({ message: 'q must not contain a NUL character', extensions: { code: 'GRAPHQL_VALIDATION_FAILED' } }),
      ],
    });
  });

  test('a .pmx file with a NUL is listed in the load errors; the repo loads', async () => {
    const dir = makeGitRepo({ 'nul.pmx': pmx('Nul').replace('name: Nul', 'name: "Nu\\0l"'), 'ok.pmx': pmx('Fine') });
    const res = await t.request<RepoBody>('POST', '/template_repos', { body: { name: dir } });
    expect(res.status).toBe(200);
    expect(res.body.template_count).toBe(1);
    const repos = await t.graphql<{ templateRepos: { name: string; loadErrors: unknown[] }[] }>(
      '{ templateRepos { name loadErrors { file message } } }',
    );
    expect(repos.body.data.templateRepos.find((r) => r.name === dir)?.loadErrors).toEqual([
      { file: 'nul.pmx', message: 'not valid YAML: a NUL character is not allowed' },
    ]);
  });

  test('the agent refuses NULs in a descriptor', async () => {
    const res = await agentRequest(agent, 'POST', '/deployments', { body: { template: { name: 'x\u0000', images: [] } } });
    expect(res.body).toEqual({ code: 400, message: 'name must not contain a NUL character', fields: 'name' });
  });
});

describe('maximum lengths', () => {
  test('a name over 255 characters is a 422 naming it, and nothing is stored', async () => {
    const before = (await t.request<unknown[]>('GET', '/registries')).body.length;
    const res = await t.request('POST', '/registries', { body: { name: 'n'.repeat(256), endpoint_url: 'https://r.example' } });
    expect(res.body).toEqual({ code: 422, message: 'name is longer than 255 characters', fields: 'name' });
    expect((await t.request<unknown[]>('GET', '/registries')).body.length).toBe(before);
    const ok = await t.request('POST', '/registries', { body: { name: 'n'.repeat(255), endpoint_url: 'https://r.example' } });
    expect(ok.status).toBe(201);
  });

  test('a 100 KB command is a 422', async () => {
    const res = await t.request('POST', '/apps/1/services', { body: { name: 'web', from: 'busybox', command: 'x'.repeat(100_000) } });
    expect(res.body).toEqual({ code: 422, message: 'command is longer than 16384 characters', fields: 'command' });
  });
});

describe('errors raised before routing are JSON', () => {
  test('431 for a header section over the limit', async () => {
    const res = await raw(t.url, `GET /registries HTTP/1.1\r\nHost: x\r\nX-Big: ${'a'.repeat(20_000)}\r\n\r\n`);
    expect(res.status).toBe(431);
    expect(res.body).toEqual({ code: 431, message: 'The request headers are too large.', fields: '' });
  });

  test.each([
    ['a malformed request line', 'GARBAGE\r\n\r\n'],
    ['a bad header name', 'GET /healthz HTTP/1.1\r\nHost: x\r\nBad Header: 1\r\n\r\n'],
    ['a bad chunked body', 'POST /registries HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\nzz\r\n'],
  ])('400 for %s', async (_what, bytes) => {
    const res = await raw(t.url, bytes);
    expect(res.status).toBe(400);
    expect(res.body).toEqual({ code: 400, message: 'The request is not valid HTTP.', fields: '' });
  });

  test('417 for an Expect other than 100-continue', async () => {
    const res = await raw(t.url, 'GET /healthz HTTP/1.1\r\nHost: x\r\nExpect: teapot\r\nConnection: close\r\n\r\n');
    expect(res.status).toBe(417);
    expect(res.body).toEqual({ code: 417, message: 'Expect: teapot is not supported.', fields: 'expect' });
  });
});
