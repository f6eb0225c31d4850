import { isIP } from 'node:net';

/** Loopback, 10/8, 172.16/12, 192.168/16, IPv6 loopback and unique-local (fc00::/7); `localhost`. */
export function isPrivateAddress(host: string): boolean {
  const address = host.replace(/^\[|\]$/g, '').toLowerCase();
  if (address === 'localhost') return true;
  if (isIP(address) === 4) {
    const [a, b] = address.split('.').map(Number);
    return a === 127 || a === 10 || (a === 172 && b >= 16 && b <= 31) || (a === 192 && b === 168);
  }
  if (isIP(address) === 6) {
    if (address === '::1') return true;
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(address);
    if (mapped) return isPrivateAddress(mapped[1]);
    return /^f[cd][0-9a-f]{2}:/.test(address);
  }
  return false;
}
