import { expect } from '@jest/globals';
import net from 'node:net';
import { startTestApp, type TestApp } from '../helpers/app';

/** Sends raw bytes and reads the answer's status line and JSON body (the connection is closed after). */
async function raw(url: string, text: string): Promise<{ status: number; body: unknown }> {
  const { hostname, port } = new URL(url);
  const answer = await new Promise<string>((resolve, reject) => {
    const socket = net.connect(Number(port), hostname, () => socket.write(text));
    let received = '';
    socket.setEncoding('utf8').on('data', (chunk: string) => {
      received += chunk;
      const [head, body = ''] = received.split('\r\n\r\n');
      const length = /content-length: (\d+)/i.exec(head)?.[1];
      if (length === undefined || Buffer.byteLength(body) < Number(length)) return;
      socket.destroy();
      resolve(received);
    });
    socket.on('end', () => resolve(received)).on('error', reject);
  });
  const [head, body] = answer.split('\r\n\r\n');
  return { status: Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1]), body: body ? (JSON.parse(body) as unknown) : undefined };
}

let t: TestApp;
beforeAll(async () => {
  t = await startTestApp({ LEGACY_UI_PORT: '0' });
});
afterAll(() => t?.close());

describe.each([
  ['main listener', () => t.url],
  ['legacy UI listener', () => t.legacyUrl!],
])('on the %s', (_name, url) => {
  test.each(['//search', '//platform', '//graphql', '//apps.json', '//'])('%s is a path, not a host: 404', async (path) => {
    expect(await raw(url(), `GET ${path} HTTP/1.1\r\nHost: localhost\r\nConnection: close\r\n\r\n`)).toEqual({
      status: 404,
      body: { code: 404, message: `no such path: ${path.replace(/\.json$/, '')}`, fields: '' },
    });
  });

  test('a request without a Host header: 400 with the error body', async () => {
    expect(await raw(url(), 'GET /healthz HTTP/1.1\r\nConnection: close\r\n\r\n')).toEqual({
      status: 400,
      // The legacy listener adds the form errors ActiveResource reads.
      body: expect.objectContaining({ code: 400, message: 'a Host header is required', fields: 'host' }),
    });
  });

  test('CONNECT: 405 with the error body, not a closed connection', async () => {
    expect(await raw(url(), 'CONNECT example.com:443 HTTP/1.1\r\nHost: example.com:443\r\n\r\n')).toEqual({
      status: 405,
      body: { code: 405, message: 'CONNECT is not supported: this is not a proxy.', fields: '' },
    });
  });
});

test('a WebSocket upgrade of another path than /graphql: 404 with the error body', async () => {
  const upgrade =
    'GET //graphql HTTP/1.1\r\nHost: localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n';
  expect(await raw(t.url, upgrade)).toEqual({ status: 404, body: { code: 404, message: 'no such path: //graphql', fields: '' } });
});
