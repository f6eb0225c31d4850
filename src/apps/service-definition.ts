import type { Service } from './app.entity';
import type { DependsOn } from './service-options';

/**
 * What will run for a service beyond its template fields, read back from its stored compose
 * options in compose's own words: GraphQL's Service shows it, the app's compose export writes it.
 */
export interface ServiceRunDefinition {
  entrypoint: string[] | null;
  user: string | null;
  workingDir: string | null;
  /** Compose's restart policy: `no`, `always`, `unless-stopped`, `on-failure[:N]`; null when the file gave none. */
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
