// What is not listed is still there at run time: container_status.info passes it through.

export type PortMap = Record<string, Array<{ HostIp: string; HostPort: string }> | null>;

export interface ContainerState {
  Status: string;
  Running: boolean;
  Paused: boolean;
  Restarting: boolean;
  Dead: boolean;
  ExitCode: number;
  Error: string;
  StartedAt: string;
  FinishedAt: string;
  /** Only when the image or the container defines a health check: starting, healthy, unhealthy. */
  Health?: { Status: string; Log?: { ExitCode: number; Output: string }[] | null };
}

export interface ContainerInspect {
  Id: string;
  Name: string;
  Created: string;
  Image: string;
  State: ContainerState;
  RestartCount: number;
  Config: {
    Image: string;
    Tty: boolean;
    Env: string[] | null;
    Cmd: string[] | null;
    Labels: Record<string, string> | null;
    ExposedPorts?: Record<string, object> | null;
  };
  HostConfig: Record<string, unknown>;
  NetworkSettings: {
    Ports: PortMap | null;
    Networks: Record<string, { Aliases: string[] | null; IPAddress: string; NetworkID: string }>;
  };
  [key: string]: unknown;
}

export interface ContainerSummary {
  Id: string;
  Names: string[];
  Image: string;
  State: string;
  Status: string;
  Labels: Record<string, string>;
  Created: number;
}

export interface ImageInspect {
  Id: string;
  RepoTags: string[] | null;
  /** `repo@sha256:…` for each registry manifest the engine pulled or pushed it as. */
  RepoDigests?: string[] | null;
  Config: { ExposedPorts?: Record<string, object> | null; Cmd?: string[] | null; Env?: string[] | null } | null;
  [key: string]: unknown;
}

export interface NetworkSummary {
  Id: string;
  Name: string;
  Driver: string;
  Scope: string;
  Labels: Record<string, string> | null;
  [key: string]: unknown;
}

export interface EngineVersion {
  Version: string;
  ApiVersion: string;
  MinAPIVersion?: string;
  Os: string;
  Arch: string;
  [key: string]: unknown;
}

export interface EndpointSettings {
  Aliases?: string[];
  /** Network-scoped links `container:alias`: the alias resolves for this container only. */
  Links?: string[];
  IPAMConfig?: { IPv4Address?: string };
}

export interface IpamSubnet {
  Subnet: string;
  Gateway?: string;
  IPRange?: string;
  AuxiliaryAddresses?: Record<string, string>;
}

export interface ContainerCreateBody {
  Image: string;
  Cmd?: string[];
  Env: string[];
  Labels: Record<string, string>;
  ExposedPorts: Record<string, Record<string, never>>;
  /** Anonymous volumes: container paths without a host path. */
  Volumes: Record<string, Record<string, never>>;
  Tty?: boolean;
  HostConfig: {
    PortBindings: Record<string, Array<{ HostIp: string; HostPort: string }>>;
    Binds: string[];
    VolumesFrom: string[];
    Links?: string[];
    NetworkMode?: string;
    RestartPolicy?: { Name: string; MaximumRetryCount?: number };
    /** Compose options in the engine's names (CapAdd, Sysctls, Tmpfs, ...). */
    [key: string]: unknown;
  };
  [key: string]: unknown;
  NetworkingConfig?: { EndpointsConfig: Record<string, EndpointSettings> };
}

export interface EngineEvent {
  Type: string;
  Action: string;
  Actor: { ID: string; Attributes: Record<string, string> };
  time: number;
  timeNano: number;
  [key: string]: unknown;
}

export type RegistryAuth =
  { username: string; password: string; serveraddress: string; email?: string } | { identitytoken: string; serveraddress?: string };
