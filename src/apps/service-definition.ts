import type { Service } from './app.entity';
import type { DependsOn } from './service-options';

/** Stored compose options in compose's own words, for GraphQL's Service and the compose export. */
export interface ServiceRunDefinition {
  entrypoint: string[] | null;
  user: string | null;
  workingDir: string | null;
  restart: string | null;
  dependsOn: Required<DependsOn>[];
}

/** The restart policy its containers are made with; null: the engine's (no). */
export function restartPolicyOf(service: Service): string | null {
  return service.restartPolicy ?? null;
}

export function serviceRunDefinition(service: Service): ServiceRunDefinition {
  const config = service.options?.engine?.config ?? {};
  return {
    entrypoint: Array.isArray(config.Entrypoint) ? config.Entrypoint.map(String) : null,
    user: typeof config.User === 'string' ? config.User : null,
    workingDir: typeof config.WorkingDir === 'string' ? config.WorkingDir : null,
    restart: restartPolicyOf(service),
    dependsOn: (service.options?.dependsOn ?? []).map((d) => ({
      service: d.service,
      condition: d.condition,
      required: d.required ?? true,
      restart: d.restart ?? false,
    })),
  };
}
