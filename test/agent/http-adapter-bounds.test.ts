import { expect } from '@jest/globals';
import { createServer, type Server, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { agentRequest, startAgent, type RunningAgent } from './agent-harness';

const MAX = 8 * 1024 * 1024;
// Long enough for a 9 MiB answer on a loaded machine (at 500 ms it lost that race under the whole
// suite), short enough that an answer that never ends is not waited for long.
const TIMEOUT_MS = 5000;

type Mode = 'huge' | 'declared-huge' | 'drip' | 'stall';

/**
 * README "Limits", external adapter answer (agent): 8 MiB, the whole exchange within twice
 * ADAPTER_TIMEOUT_MS; past either, 502 / 504. An external adapter is an orchestrator of someone
 * else's (Kubernetes, Marathon, Fleet) that cannot run here: a plain HTTP server stands in for
 * one that misbehaves, in the way `mode` says. The agent is real, and so is its HTTPS.
 */
describe("the http adapter's answers are bounded in size and in time", () => {
  let adapter: Server;
  let url: string;
  let agent: RunningAgent;
  let mode: Mode = 'huge';

  function answer(res: ServerResponse) {
    if (mode === 'stall') return; // headers never come
    if (mode === 'declared-huge') {
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': String(MAX + 1) });
      return void res.write('[');
    }
    res.writeHead(mode === 'huge' ? 201 : 200, { 'content-type': 'application/json' });
    if (mode === 'drip') {
      // One byte well inside every gap the per-read timeout allows, forever.
      const timer = setInterval(() => res.write(' '), TIMEOUT_MS / 5);
      return void res.on('close', () => clearInterval(timer));
    }
    const chunk = Buffer.alloc(64 * 1024, ' ');
    let sent = 0;
    res.write('[');
    const pump = () => {
      while (sent <= MAX) {
        sent += chunk.length;
        if (!res.write(chunk)) return void res.once('drain', pump);
      }
      res.end(']');
    };
    pump();
  }

  beforeAll(async () => {
    adapter = createServer((req, res) => {
      req.resume();
      req.on('end', () => answer(res));
    });
    await new Promise<void>((resolve) => adapter.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(adapter.address() as AddressInfo).port}`;
    agent = await startAgent({ env: { ADAPTER_URL: url, ADAPTER_TIMEOUT_MS: String(TIMEOUT_MS) } });
  });

  afterAll(async () => {
    adapter?.closeAllConnections();
    await new Promise((resolve) => adapter?.close(resolve));
    await agent?.close();
  });

  /** Interface B's answer, with a safety net far past the deadline under test, so that an exchange that never ends fails here. */
  async function ask(method: string, path: string, body?: unknown) {
    const res = await Promise.race([
      agentRequest(agent, method, path, { body }),
      new Promise<never>((_, reject) => setTimeout(() => reject(new Error('no answer within 20 s')), 20_000).unref()),
    ]);
    return { status: res.status, body: res.body };
  }

  test('an answer over 8 MiB, streamed or declared, is a 502; a deployment it answered is not stored', async () => {
    const tooLarge = {
      status: 502,
      body: { code: 502, message: `The adapter answered GET /v1/metadata with more than ${MAX} bytes.`, fields: '' },
    };
    mode = 'huge';
    expect(await ask('GET', '/metadata')).toEqual(tooLarge);
    mode = 'declared-huge';
    expect(await ask('GET', '/metadata')).toEqual(tooLarge);
    mode = 'huge';
    const template = { name: 'big', images: [{ name: 'web', source: 'platform-test/busybox:latest' }] };
    expect(await ask('POST', '/deployments', { template })).toEqual({
      status: 502,
      body: { code: 502, message: `The adapter answered POST /v1/services with more than ${MAX} bytes.`, fields: '' },
    });
    expect(await ask('GET', '/deployments')).toEqual({ status: 200, body: [] });
  }, 60_000);

  test('an adapter that never answers, and one that drips bytes past every per-read timeout, are a 504', async () => {
    const late = { status: 504, body: { code: 504, message: `The adapter at ${url} did not answer within ${TIMEOUT_MS} ms.`, fields: '' } };
    mode = 'stall';
    expect(await ask('GET', '/metadata')).toEqual(late);
    mode = 'drip';
    expect(await ask('GET', '/metadata')).toEqual(late);
  }, 60_000);
});
