import type { IpamSubnet } from '../engines/docker-types';

/** Compose keys beyond the spec's Service fields, applied each time its containers are made. */
export interface ServiceOptions {
  /** Create body and HostConfig fields, in the engine's names. */
  engine?: { config?: Record<string, unknown>; hostConfig?: Record<string, unknown> };
  /** None: the app's default network. */
  networks?: AppNetwork[];
  dependsOn?: DependsOn[];
  /** Compose `deploy.replicas` or `scale`. */
  replicas?: number;
  /** Named without a value, and not given by the request: unset even where the image sets them. */
  unsetEnvironment?: string[];
  readOnlyVolumesFrom?: string[];
  /** Compose `secrets` and `configs`, written before the container starts. */
  files?: { target: string; content: string; mode?: number }[];
  externalVolumes?: string[];
  /** Compose name -> the engine's, for external volumes declared with `name:`. */
  volumeNames?: Record<string, string>;
  /** Built when the app was made; removed with it. */
  builtImage?: string;
  /** Without credentials. */
  buildContext?: string;
}

export interface DependsOn {
  service: string;
  condition: DependsOnCondition;
  /** false: the service may be missing (not in the file, or in an inactive profile); not waited for then. */
  required?: boolean;
  /** Recreated whenever that one is. */
  restart?: boolean;
}

export type DependsOnCondition = 'service_started' | 'service_healthy' | 'service_completed_successfully';

export interface AppNetwork {
  /** `default` is the app's own network. */
  name: string;
  aliases: string[];
  internal?: boolean;
  /** Used as is and never removed. */
  external?: string;
  ipv4Address?: string;
  ipam?: IpamSubnet[];
}
