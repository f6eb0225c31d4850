import { stringify } from 'yaml';
import type { App } from '../app.entity';
import { serviceRunDefinition } from '../service-definition';

/** What POST /apps `compose_yaml` reads back, with the options that decide what runs; needs loadApp's relations. */
export function composeYaml(app: App): string {
  const services: Record<string, Record<string, unknown>> = {};
  for (const service of app.services.getItems()) {
    const entry: Record<string, unknown> = { image: service.from };
    const run = serviceRunDefinition(service);
    if (run.entrypoint) entry.entrypoint = run.entrypoint;
    if (service.command) entry.command = service.command;
    if (run.user !== null) entry.user = run.user;
    if (run.workingDir !== null) entry.working_dir = run.workingDir;
    if (run.restart !== null) entry.restart = run.restart;
    if (run.dependsOn.length) {
      entry.depends_on = Object.fromEntries(
        run.dependsOn.map((d) => [
          d.service,
          { condition: d.condition, ...(d.required ? {} : { required: false }), ...(d.restart ? { restart: true } : {}) },
        ]),
      );
    }
    if (service.ports.length) {
      entry.ports = service.ports.map((p) => {
        const container = `${p.container_port}${p.proto && p.proto.toLowerCase() !== 'tcp' ? `/${p.proto.toLowerCase()}` : ''}`;
        if (p.host_port === null || p.host_port === undefined || p.host_port === '') return container;
        return `${p.host_interface ? `${p.host_interface}:` : ''}${p.host_port}:${container}`;
      });
    }
    if (service.expose.length) entry.expose = service.expose.map(String);
    // A variable left unset goes back without a value, to be taken from the environment again.
    const unset = (service.options?.unsetEnvironment ?? []).map((variable) => [variable, null] as const);
    const environment = [...unset, ...service.environment.map((e) => [e.variable, e.value ?? ''] as const)];
    if (environment.length) entry.environment = Object.fromEntries(environment);
    if (service.volumes.length)
      entry.volumes = service.volumes.map((v) => (v.host_path ? `${v.host_path}:${v.container_path}` : v.container_path));
    const links = service.links.getItems();
    if (links.length) entry.links = links.map((l) => (l.alias && l.alias !== l.to.name ? `${l.to.name}:${l.alias}` : l.to.name));
    const shared = service.volumesFrom.getItems();
    const readOnly = new Set(service.options?.readOnlyVolumesFrom ?? []);
    if (shared.length) entry.volumes_from = shared.map((v) => `${v.exportedFrom.name}${readOnly.has(v.exportedFrom.name) ? ':ro' : ''}`);
    services[service.name] = entry;
  }
  return stringify({ services });
}
