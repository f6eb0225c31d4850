import { expect } from '@jest/globals';
import { createServer, type Server } from 'node:net';
import { ephemeralRange, freePort } from '../../src/net/free-port';

const listen = (port: number) =>
  new Promise<Server>((resolve, reject) => {
    const server = createServer();
    server.once('error', reject);
    server.listen({ port, host: '127.0.0.1', exclusive: true }, () => resolve(server));
  });

describe('freePort', () => {
  test('gives a port below the ephemeral range, where no outgoing connection can take it before the listen', async () => {
    const [low] = ephemeralRange();
    expect(low).toBeGreaterThan(10_000); // Linux: the range is read from /proc
    const ports = await Promise.all(Array.from({ length: 20 }, () => freePort()));
    for (const port of ports) {
      expect(port).toBeGreaterThanOrEqual(10_000);
      expect(port).toBeLessThan(low);
    }
  });

  test('the port can be listened on', async () => {
    const server = await listen(await freePort());
    await new Promise((resolve) => server.close(resolve));
  });

  test('never a port something listens on', async () => {
    const taken: Server[] = [];
    for (let i = 0; i < 50; i++) taken.push(await listen(await freePort()));
    const ports = new Set(taken.map((s) => (s.address() as { port: number }).port));
    try {
      for (let i = 0; i < 50; i++) expect(ports.has(await freePort())).toBe(false);
    } finally {
      await Promise.all(taken.map((s) => new Promise((resolve) => s.close(resolve))));
    }
  });
});
