import { lookup as dnsLookup, type LookupAddress } from 'node:dns';
import { BlockList, isIP } from 'node:net';
import { Agent } from 'undici';

// Requests a client configured (registries, token realms, redirects) never go to link-local (cloud
// metadata), unspecified, multicast or metadata addresses; private ranges only with REGISTRY_ALLOW_PRIVATE.
// Judged at connect time on the resolved addresses, so a rebinding name gains nothing.
const NEVER = new BlockList();
NEVER.addSubnet('169.254.0.0', 16, 'ipv4');
NEVER.addSubnet('0.0.0.0', 8, 'ipv4');
NEVER.addSubnet('224.0.0.0', 4, 'ipv4');
NEVER.addSubnet('240.0.0.0', 4, 'ipv4');
NEVER.addAddress('100.100.100.200', 'ipv4'); // Alibaba Cloud metadata
NEVER.addSubnet('fe80::', 10, 'ipv6');
NEVER.addSubnet('ff00::', 8, 'ipv6');
NEVER.addAddress('::', 'ipv6');
NEVER.addAddress('fd00:ec2::254', 'ipv6'); // AWS metadata over IPv6

const PRIVATE = new BlockList();
PRIVATE.addSubnet('127.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('10.0.0.0', 8, 'ipv4');
PRIVATE.addSubnet('172.16.0.0', 12, 'ipv4');
PRIVATE.addSubnet('192.168.0.0', 16, 'ipv4');
PRIVATE.addSubnet('100.64.0.0', 10, 'ipv4');
PRIVATE.addAddress('::1', 'ipv6');
PRIVATE.addSubnet('fc00::', 7, 'ipv6');

/** IPv4-mapped IPv6 (::ffff:169.254.169.254) is judged as the IPv4 address it carries. */
const ipv4Mapped = (address: string): string | undefined => /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address)?.[1];

export function isNeverAddress(address: string): boolean {
  const mapped = ipv4Mapped(address);
  if (mapped) return isNeverAddress(mapped);
  return NEVER.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
}

const METADATA_NAMES = new Set(['metadata.google.internal', 'metadata.goog']);

/** Judged without resolving, to refuse a configured URL up front; the connect-time check catches names. */
export function isNeverHost(hostname: string): boolean {
  const host = hostname.replace(/^\[|\]$/g, '').toLowerCase();
  return isIP(host) ? isNeverAddress(host) : METADATA_NAMES.has(host.replace(/\.$/, ''));
}

/** Refused by the policy; callers report it exactly like an unreachable host. */
export class OutboundRefusedError extends Error {
  readonly code = 'EOUTBOUNDREFUSED';
}

export class OutboundPolicy {
  readonly dispatcher: Agent;

  constructor(readonly allowPrivate: boolean) {
    this.dispatcher = new Agent({ connect: { lookup: this.lookup } });
  }

  allows(address: string): boolean {
    if (isNeverAddress(address)) return false;
    const mapped = ipv4Mapped(address);
    if (mapped) return this.allows(mapped);
    return this.allowPrivate || !PRIVATE.check(address, isIP(address) === 6 ? 'ipv6' : 'ipv4');
  }

  /** An IP literal in the URL never reaches the resolver: judged here before the request. */
  assertUrl(url: URL): void {
    const host = url.hostname.replace(/^\[|\]$/g, '');
    if (isIP(host) && !this.allows(host)) throw new OutboundRefusedError('refused by the outbound policy');
  }

  private readonly lookup = (
    hostname: string,
    options: { all?: boolean; family?: number | string },
    callback: (error: Error | null, address: string | LookupAddress[], family?: number) => void,
  ): void => {
    const family = options.family === 'IPv6' || options.family === 6 ? 6 : options.family === 'IPv4' || options.family === 4 ? 4 : 0;
    dnsLookup(hostname, { family, all: true }, (error, addresses) => {
      if (error) return callback(error, []);
      if (addresses.length === 0 || addresses.some((a) => !this.allows(a.address))) {
        return callback(new OutboundRefusedError('refused by the outbound policy'), []);
      }
      if (options.all) return callback(null, addresses);
      callback(null, addresses[0].address, addresses[0].family);
    });
  };

  close(): Promise<void> {
    return this.dispatcher.close();
  }
}
