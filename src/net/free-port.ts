import { readFileSync } from 'node:fs';
import { createServer } from 'node:net';

/** Below the ephemeral range when it can be, so no outgoing connection takes the port between probe and listen. */
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
