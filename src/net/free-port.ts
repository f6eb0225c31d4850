import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/**
 * A TCP port free on 127.0.0.1 now, for a server that listens on it later (embedded PostgreSQL, a
 * child process, an agent whose certificate names its port).
 *
 * The port is taken from below the kernel's ephemeral range when it can be: between the probe and
 * the listen, every outgoing connection takes a local port from that range, and one of them could
 * take this port too (a test's agent failed with EADDRINUSE so in CI). Ports below the range are
 * only ever taken by an explicit bind. Falls back to a port the kernel picks.
 */
export async function freePort(host = '127.0.0.1'): Promise<number> {
  const [low] = ephemeralRange();
  const floor = 10_000;
  if (low > floor) {
    for (let attempt = 0; attempt < 20; attempt++) {
      const port = floor + Math.floor(Math.random() * (low - floor));
      if (await listenAndRelease(host, port).then(Boolean, () => false)) return port;
    }
  }
  return listenAndRelease(host, 0);
}

export function ephemeralRange(): [number, number] {
  try {
    const [low, high] = readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/).map(Number);
    if (Number.isInteger(low) && Number.isInteger(high)) return [low, high];
  } catch {
    // Not Linux: the kernel's pick is all there is.
  }
  return [0, 0];
}

function listenAndRelease(host: string, port: number): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen({ port, host, exclusive: true }, () => {
      const address = probe.address();
      probe.close(() => (typeof address === 'object' && address ? resolve(address.port) : reject(new Error('no port'))));
    });
  });
}
