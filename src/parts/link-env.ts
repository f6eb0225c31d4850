import type { ContainerInspect } from '../engines/docker-types';

/**
 * What Docker's legacy links set (the engine's daemon/links ToEnv) and a user-defined network does
 * not: images of the Panamax era read `DB_PORT_3306_TCP_ADDR`.
 */
export function linkEnvironment(alias: string, parentContainer: string, target: ContainerInspect, ip: string): string[] {
  const ports = Object.keys(target.Config.ExposedPorts ?? {}).map((key) => {
    const [port, proto = 'tcp'] = key.split('/');
    return { port: Number(port), proto };
  });
  return linkVariables(alias, parentContainer, ports, target.Config.Env ?? [], ip);
}

/** For orchestrators without containers to inspect (kubernetes: the template's image, its Service's address). */
export function linkVariables(
  alias: string,
  parentContainer: string,
  exposed: readonly { port: number; proto: string }[],
  environment: readonly string[],
  ip: string,
): string[] {
  const prefix = alias.toUpperCase().replace(/-/g, '_');
  const ports = exposed
    .map(({ port, proto }) => ({ port, proto: proto.toLowerCase() }))
    .filter((p) => Number.isInteger(p.port))
    .sort((a, b) => a.port - b.port || (a.proto === 'tcp' ? -1 : b.proto === 'tcp' ? 1 : 0));
  const env: string[] = [];
  if (ip && ports.length > 0) {
    env.push(`${prefix}_PORT=${ports[0].proto}://${ip}:${ports[0].port}`);
    for (const { port, proto } of ports) {
      const at = `${prefix}_PORT_${port}_${proto.toUpperCase()}`;
      env.push(`${at}=${proto}://${ip}:${port}`, `${at}_ADDR=${ip}`, `${at}_PORT=${port}`, `${at}_PROTO=${proto}`);
    }
  }
  env.push(`${prefix}_NAME=/${parentContainer}/${alias}`);
  for (const entry of environment) {
    const eq = entry.indexOf('=');
    if (eq < 0) continue;
    const name = entry.slice(0, eq);
    if (name === 'HOME' || name === 'PATH') continue;
    env.push(`${prefix}_ENV_${name}=${entry.slice(eq + 1)}`);
  }
  return env;
}
