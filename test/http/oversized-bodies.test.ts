import { expect } from '@jest/globals';
import http from 'node:http';
import { request } from 'undici';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';

const TOO_LARGE = { code: 413, message: 'the body is larger than 1048576 bytes', fields: '' };
const body = Buffer.alloc(20 * 1024 * 1024, 'a');
const headers = { authorization: `Bearer ${ADMIN_TOKEN}`, 'content-type': 'application/json' };

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp();
});
afterAll(() => t?.close());

/** Node's own client: the answer, or the socket error it saw instead. */
function nodeHttp(
  url: string,
  extra: Record<string, string> = {},
): Promise<{ status?: number; body?: unknown; error?: string; continued: boolean }> {
  return new Promise((resolve) => {
    let continued = false;
    const req = http.request(url, { method: 'POST', headers: { ...headers, ...extra, 'content-length': String(body.length) } }, (res) => {
      let text = '';
      res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
      res.on('end', () => resolve({ status: res.statusCode, body: JSON.parse(text) as unknown, continued }));
    });
    req.on('error', (error: NodeJS.ErrnoException) => resolve({ error: error.code ?? error.message, continued }));
    if (extra.expect) req.on('continue', () => ((continued = true), req.end(body)));
    else req.end(body);
  });
}

/**
 * A 20 MB body gets its 413 in every Node client, several at once: the service reads the body to
 * its end before answering (an answer sent while the client writes reached it as EPIPE or "other
 * side closed").
 */
test('a 20 MB body is answered 413 with the error body in undici, fetch and node:http', async () => {
  const url = `${t.url}/registries`;
  const rounds = await Promise.all(
    Array.from({ length: 3 }, async () => {
      const viaUndici = await request(url, { method: 'POST', headers, body });
      const viaFetch = await fetch(url, { method: 'POST', headers, body });
      return [
        { status: viaUndici.statusCode, body: await viaUndici.body.json() },
        { status: viaFetch.status, body: (await viaFetch.json()) as unknown },
        await nodeHttp(url),
      ];
    }),
  );
  for (const answer of rounds.flat()) expect(answer).toMatchObject({ status: 413, body: TOO_LARGE });
});

test('a refusal that comes before the body is read (no token) is still read whole by the client', async () => {
  const res = await fetch(`${t.url}/registries`, { method: 'POST', headers: { 'content-type': 'application/json' }, body });
  expect(res.status).toBe(401);
  expect(await res.json()).toEqual(expect.objectContaining({ code: 401 }));
});

test('Expect: 100-continue with a declared length over the limit is answered 413 before any body is sent', async () => {
  expect(await nodeHttp(`${t.url}/registries`, { expect: '100-continue' })).toEqual({ status: 413, body: TOO_LARGE, continued: false });
});

test('Expect: 100-continue under the limit is continued and served', async () => {
  const small = await new Promise<{ status?: number; continued: boolean }>((resolve) => {
    let continued = false;
    const payload = JSON.stringify({ name: 'continued', endpoint_url: 'https://continued.example' });
    const req = http.request(`${t.url}/registries`, {
      method: 'POST',
      headers: { ...headers, expect: '100-continue', 'content-length': String(Buffer.byteLength(payload)) },
    });
    req.on('continue', () => ((continued = true), req.end(payload)));
    req.on('response', (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode, continued }));
    });
  });
  expect(small).toEqual({ status: 201, continued: true });
});
