import type { IpamSubnet } from '../engines/docker-types';

/**
 * What a service's compose definition asked for beyond the spec's Service fields, stored with
 * the service (`services.options`) and applied each time its containers are made.
 */
export interface ServiceOptions {
  /** Fields of the container create body and of its HostConfig, in the engine's names. */
  engine?: { config?: Record<string, unknown>; hostConfig?: Record<string, unknown> };
  /** The app networks the service joins (compose `networks:`); none given: the app's default network. */
  networks?: AppNetwork[];
  /** Services to wait for before this one is made, and for what (compose `depends_on`). */
  dependsOn?: DependsOn[];
  /** How many containers (compose `deploy.replicas` / `scale`); default 1. */
  replicas?: number;
  /**
   * Variables the compose file names without a value that the request's environment did not
   * give: unset in the container (the engine's `NAME` without `=`), even where the image sets them.
   */
  unsetEnvironment?: string[];
  /** The services (of its volumes_from) whose volumes it mounts read-only (compose `volumes_from: [name:ro]`). */
  readOnlyVolumesFrom?: string[];
  /** Files written into the container before it starts (compose `secrets` and `configs`). */
  files?: { target: string; content: string; mode?: number }[];
  /** Volume names (as in `volumes[].host_path`) that are the engine's own, not the app's (compose `external`). */
  externalVolumes?: string[];
  /** External volumes declared with `name:`: compose name → the engine's volume name. */
  volumeNames?: Record<string, string>;
  /** The image this service runs was built from its repo when the app was made (removed with the app). */
  builtImage?: string;
  /** The service's image is built (compose `build:`) from this context when the app is made; no credentials. */
  buildContext?: string;
}

export interface DependsOn {
  service: string;
  condition: DependsOnCondition;
  /** false: the service may be missing (not in the file, or in a profile not active); not waited for then. */
  required?: boolean;
  /** true: this service is recreated whenever that one is (compose `restart: true`). */
  restart?: boolean;
}

export type DependsOnCondition = 'service_started' | 'service_healthy' | 'service_completed_successfully';

export interface AppNetwork {
  /** The compose name (`default` is the app's own network). */
  name: string;
  aliases: string[];
  /** No route out of the network (compose `internal: true`). */
  internal?: boolean;
  /** The engine's network, used as is and never removed (compose `external: true`). */
  external?: string;
  /** The service's fixed address on it (compose `ipv4_address`). */
  ipv4Address?: string;
  /** The network's own subnets (compose `ipam.config`), instead of one from the app network pool. */
  ipam?: IpamSubnet[];
}
