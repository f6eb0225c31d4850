import { stringify } from 'yaml';
import type { App } from './app.entity';

/**
 * The app as a Compose file (Compose Specification, no `version`): one service per service,
 * by its name, with what POST /apps `compose_yaml` reads back. The app must be loaded with
 * its services, links and shared volumes (loadApp).
 */
export function composeYaml(app: App): string {
  const services: Record<string, Record<string, unknown>> = {};
  for (const service of app.services.getItems()) {
    const entry: Record<string, unknown> = { image: service.from };
    if (service.command) entry.command = service.command;
    if (service.ports.length) {
      entry.ports = service.ports.map((p) => {
        const container = `${p.container_port}${p.proto && p.proto.toLowerCase() !== 'tcp' ? `/${p.proto.toLowerCase()}` : ''}`;
        if (p.host_port === null || p.host_port === undefined || p.host_port === '') return container;
        return `${p.host_interface ? `${p.host_interface}:` : ''}${p.host_port}:${container}`;
      });
    }
    if (service.expose.length) entry.expose = service.expose.map(String);
    if (service.environment.length) entry.environment = Object.fromEntries(service.environment.map((e) => [e.variable, e.value ?? '']));
    if (service.volumes.length)
      entry.volumes = service.volumes.map((v) => (v.host_path ? `${v.host_path}:${v.container_path}` : v.container_path));
    const links = service.links.getItems();
    if (links.length) entry.links = links.map((l) => (l.alias && l.alias !== l.to.name ? `${l.to.name}:${l.alias}` : l.to.name));
    const shared = service.volumesFrom.getItems();
    if (shared.length) entry.volumes_from = shared.map((v) => v.exportedFrom.name);
    services[service.name] = entry;
  }
  return stringify({ services });
}
