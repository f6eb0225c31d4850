/** IPv4 CIDR blocks as numbers: `10.0.0.0/8` is [167772160, 8]. */
export function parseCidr(cidr: string): [number, number] {
  const match = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})\/(\d{1,2})$/.exec(cidr.trim());
  if (!match || match.slice(1, 5).some((o) => Number(o) > 255) || Number(match[5]) > 32) throw new Error(`"${cidr}" is not an IPv4 CIDR`);
  const bits = Number(match[5]);
  const ip = match.slice(1, 5).reduce((acc, o) => acc * 256 + Number(o), 0);
  const size = 2 ** (32 - bits);
  return [ip - (ip % size), bits];
}

export function overlaps(a: number, aSize: number, b: number, bSize: number): boolean {
  return a < b + bSize && b < a + aSize;
}

export function formatIp(ip: number): string {
  return [24, 16, 8, 0].map((shift) => Math.floor(ip / 2 ** shift) % 256).join('.');
}
