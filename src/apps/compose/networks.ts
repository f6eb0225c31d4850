import { isMapping, type ComposeModel } from './loader';
import { parseCidr } from '../../net/cidr';
import type { AppNetwork } from '../service-options';

/** Accepted with a warning naming them. */
const UNHONOURED_ENDPOINT_KEYS = [
  'ipv6_address',
  'link_local_ips',
  'mac_address',
  'driver_opts',
  'priority',
  'gw_priority',
  'interface_name',
];

/** A fixed ipv4_address needs a subnet the file gives the network. */
export function networksOf(at: string, value: unknown, model: ComposeModel, problems: string[], warnings: string[]): AppNetwork[] {
  const entries: [string, unknown][] = Array.isArray(value)
    ? value.map((n) => [str(n), null])
    : isMapping(value)
      ? Object.entries(value)
      : [];
  return entries.flatMap(([name, v]) => {
    if (name !== 'default' && !(name in model.networks)) {
      problems.push(`${at}.networks: "${name}" is not declared under the top-level networks`);
      return [];
    }
    const def = model.networks[name];
    const network: AppNetwork = { name, aliases: isMapping(v) && Array.isArray(v.aliases) ? v.aliases.map(String) : [] };
    if (isMapping(def)) {
      if (def.internal === true) network.internal = true;
      if (def.external === true || isMapping(def.external))
        network.external = str(def.name ?? (isMapping(def.external) ? def.external.name : undefined) ?? name);
      if (def.driver != null && def.driver !== 'bridge')
        problems.push(`networks.${name}.driver: "${str(def.driver)}" is not supported: app networks are bridge networks on one engine`);
      if (def.ipam != null && !network.external) {
        const ipam = ipamOf(name, def.ipam, problems, warnings);
        if (ipam.length) network.ipam = ipam;
      }
    }
    if (isMapping(v)) {
      for (const key of UNHONOURED_ENDPOINT_KEYS) {
        if (v[key] != null) warnings.push(`${at}.networks.${name}.${key} is ignored: the engine gives the address and settings of its own`);
      }
      if (typeof v.ipv4_address === 'string') {
        const address = v.ipv4_address.trim();
        const inside = network.ipam?.some((c) => inSubnet(address, c.Subnet));
        if (network.external) network.ipv4Address = address;
        else if (!network.ipam)
          problems.push(
            `${at}.networks.${name}.ipv4_address: a fixed address needs a subnet of the network's own: give networks.${name}.ipam.config[].subnet`,
          );
        else if (!inside)
          problems.push(
            `${at}.networks.${name}.ipv4_address: ${address} is not in a subnet of networks.${name} (${network.ipam.map((c) => c.Subnet).join(', ')})`,
          );
        else network.ipv4Address = address;
      }
    }
    return [network];
  });
}

function ipamOf(name: string, value: unknown, problems: string[], warnings: string[]): NonNullable<AppNetwork['ipam']> {
  const ipam = isMapping(value) ? value : {};
  if (ipam.driver != null && ipam.driver !== 'default') {
    problems.push(`networks.${name}.ipam.driver: "${str(ipam.driver)}" is not supported: the engine's default IPAM driver is used`);
    return [];
  }
  if (isMapping(ipam.options) && Object.keys(ipam.options).length)
    warnings.push(`networks.${name}.ipam.options is ignored: the default IPAM driver takes no options`);
  const blocks = Array.isArray(ipam.config) ? ipam.config.filter(isMapping) : [];
  return blocks.flatMap((block, i) => {
    const subnet = typeof block.subnet === 'string' ? block.subnet.trim() : '';
    if (!isIpv4Cidr(subnet)) {
      problems.push(`networks.${name}.ipam.config[${i}].subnet: "${subnet}" is not an IPv4 subnet (a.b.c.d/n)`);
      return [];
    }
    return [
      {
        Subnet: subnet,
        ...(typeof block.gateway === 'string' ? { Gateway: block.gateway } : {}),
        ...(typeof block.ip_range === 'string' ? { IPRange: block.ip_range } : {}),
        ...(isMapping(block.aux_addresses)
          ? { AuxiliaryAddresses: Object.fromEntries(Object.entries(block.aux_addresses).map(([k, a]) => [k, str(a)])) }
          : {}),
      },
    ];
  });
}

function isIpv4Cidr(text: string): boolean {
  try {
    parseCidr(text);
    return true;
  } catch {
    return false;
  }
}

function inSubnet(address: string, subnet: string): boolean {
  if (!/^\d{1,3}(\.\d{1,3}){3}$/.test(address) || !isIpv4Cidr(subnet)) return false;
  const [net, bits] = parseCidr(subnet);
  const [ip] = parseCidr(`${address}/32`);
  return ip >= net && ip < net + 2 ** (32 - bits);
}

/** Objects as JSON. */
function str(value: unknown): string {
  return typeof value === 'string' ? value : typeof value === 'object' && value !== null ? JSON.stringify(value) : `${value as string}`;
}
