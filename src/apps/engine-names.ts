// Named as docker compose names a project's objects, with the installation in the project (an
// engine may be shared); services reach each other by network aliases, so copies run side by side.
export function projectName(appId: number, instance: string): string {
  return `platform-app-${appId}-${instance.slice(0, 8)}`;
}

export function containerName(project: string, service: string, replica = 1): string {
  return replica > 1 ? `${project}-${service}-${replica}` : `${project}-${service}`;
}

export function scopedName(project: string, name: string): string {
  return `${project}_${name}`;
}

/** Where a container waits while its successor proves itself (a switch of the app to `revision`). */
export function asideName(name: string, revision: number): string {
  return `${name}-old-r${revision}`;
}

/** A name from the engine's list (`/name`) or an inspect. */
export function isAside(name: string): boolean {
  return /-old-r\d+$/.test(name);
}
