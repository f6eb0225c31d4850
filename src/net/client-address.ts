import type { IncomingMessage } from 'node:http';
import { BlockList, isIP } from 'node:net';

/** X-Forwarded-For counts only from a TRUSTED_PROXIES peer, read from the right: anyone else could write anything. */
export function clientAddressResolver(trusted: readonly string[]): (req: IncomingMessage) => string | null {
  const proxies = new BlockList();
  for (const cidr of trusted) {
    const [address, bits] = cidr.split('/');
    proxies.addSubnet(address, Number(bits), 'ipv4');
  }
  const isProxy = (address: string): boolean => {
    const plain = unmapped(address);
    return isIP(plain) === 4 && proxies.check(plain, 'ipv4');
  };
  return (req) => {
    const peer = req.socket.remoteAddress ? unmapped(req.socket.remoteAddress) : null;
    if (!peer || trusted.length === 0 || !isProxy(peer)) return peer;
    const header = req.headers['x-forwarded-for'];
    const hops = (Array.isArray(header) ? header.join(',') : (header ?? ''))
      .split(',')
      .map((hop) => hop.trim())
      .filter(Boolean);
    for (let i = hops.length - 1; i >= 0; i--) {
      if (!isIP(unmapped(hops[i]))) return peer;
      if (!isProxy(hops[i])) return unmapped(hops[i]);
    }
    return hops.length ? unmapped(hops[0]) : peer;
  };
}

function unmapped(address: string): string {
  return /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1] ?? address;
}
