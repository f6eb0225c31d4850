/**
 * The engine objects of an app carry app-scoped names, as the reference implementation (docker
 * compose) names a project's: the project is `platform-app-<app id>-<installation>` (an engine may
 * be shared by installations), containers are `<project>-<service>` (and `-<n>` from the second
 * replica on), volumes and extra networks `<project>_<name>`. Inside the app, services are
 * reached by their own names (network aliases), so two copies of one file run side by side.
 */
export function projectName(appId: number, instance: string): string {
  return `platform-app-${appId}-${instance.slice(0, 8)}`;
}

export function containerName(project: string, service: string, replica = 1): string {
  return replica > 1 ? `${project}-${service}-${replica}` : `${project}-${service}`;
}

export function scopedName(project: string, name: string): string {
  return `${project}_${name}`;
}
