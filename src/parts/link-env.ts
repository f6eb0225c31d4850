import type { ContainerInspect } from '../engines/docker-types';

/**
 * The environment Docker's legacy links set (docs.docker.com "Legacy container links"; the
 * engine's daemon/links ToEnv), so images of the Panamax era that read `DB_PORT_3306_TCP_ADDR`
 * work unchanged on a user-defined network, where the engine no longer sets them:
 *
 * - `<ALIAS>_NAME=/<container>/<alias>`
 * - `<ALIAS>_PORT=<proto>://<ip>:<port>` for the lowest exposed port (tcp before udp),
 * - for each exposed port `<ALIAS>_PORT_<port>_<PROTO>` (the URL) and its `_ADDR`, `_PORT`, `_PROTO`,
 * - `<ALIAS>_ENV_<VAR>` for each variable of the linked container but HOME and PATH.
 *
 * `<ALIAS>` is the alias upper-cased with `-` as `_`, as the engine makes it.
 */
export function linkEnvironment(alias: string, parentContainer: string, target: ContainerInspect, ip: string): string[] {
  const ports = Object.keys(target.Config.ExposedPorts ?? {}).map((key) => {
    const [port, proto = 'tcp'] = key.split('/');
    return { port: Number(port), proto };
  });
  return linkVariables(alias, parentContainer, ports, target.Config.Env ?? [], ip);
}

/**
 * The same variables from their parts, for orchestrators without containers to inspect (the
 * kubernetes adapter: the linked image's ports and environment from the template, its Service's
 * address): `ports` as exposed, `env` as `NAME=value`.
 */
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
