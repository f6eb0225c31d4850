import type { DockerClient } from '../../engines/docker-client';
import { enginePath, orNull } from '../../engines/docker-http';

export interface SwarmServiceSpec {
  Name: string;
  Labels?: Record<string, string>;
  TaskTemplate: {
    ContainerSpec: {
      Image: string;
      Args?: string[];
      Env?: string[];
      Labels?: Record<string, string>;
      Mounts?: { Type: 'bind' | 'volume'; Source?: string; Target: string }[];
      /** Nanoseconds. */
      StopGracePeriod?: number;
    };
    Networks?: { Target: string; Aliases?: string[] }[];
    RestartPolicy?: { Condition: 'none' | 'on-failure' | 'any'; MaxAttempts?: number };
  };
  Mode: { Replicated: { Replicas: number } };
  EndpointSpec?: {
    Mode: 'vip' | 'dnsrr';
    Ports?: { Protocol: 'tcp' | 'udp'; TargetPort: number; PublishedPort?: number; PublishMode: 'ingress' | 'host' }[];
  };
}

export interface SwarmService {
  ID: string;
  Version: { Index: number };
  Spec: SwarmServiceSpec;
}

export interface SwarmTask {
  ID: string;
  ServiceID: string;
  DesiredState: string;
  Status: { State: string; Message?: string; Err?: string; PortStatus?: { Ports?: { PublishedPort: number; TargetPort: number }[] } };
}

export interface SwarmInfo {
  ID: string;
}

export const swarmApi = {
  /** null when this engine is not a swarm manager (the engine answers 503). */
  async inspect(docker: DockerClient): Promise<SwarmInfo | null> {
    try {
      return await docker.request<SwarmInfo>('GET', '/swarm');
    } catch (error) {
      if ((error as { statusCode?: number }).statusCode === 503) return null;
      throw error;
    }
  },

  async init(docker: DockerClient, advertiseAddr: string): Promise<string> {
    return docker.request<string>('POST', '/swarm/init', { body: { ListenAddr: `${advertiseAddr}:2377`, AdvertiseAddr: advertiseAddr } });
  },

  async leave(docker: DockerClient): Promise<void> {
    await docker.request('POST', '/swarm/leave', { query: { force: true } });
  },

  createService(docker: DockerClient, spec: SwarmServiceSpec): Promise<{ ID: string; Warnings?: string[] | null }> {
    return docker.request('POST', '/services/create', { body: spec });
  },

  inspectService(docker: DockerClient, id: string): Promise<SwarmService | null> {
    return orNull(docker.request<SwarmService>('GET', enginePath('services', id)));
  },

  async updateService(docker: DockerClient, id: string, version: number, spec: SwarmServiceSpec): Promise<void> {
    await docker.request('POST', enginePath('services', id, 'update'), { query: { version }, body: spec });
  },

  async removeService(docker: DockerClient, id: string): Promise<void> {
    await docker.request('DELETE', enginePath('services', id));
  },

  listServices(docker: DockerClient, labels: Record<string, string>): Promise<SwarmService[]> {
    return docker.request('GET', '/services', {
      query: { filters: { label: Object.entries(labels).map(([key, value]) => `${key}=${value}`) } },
    });
  },

  listTasks(docker: DockerClient, filters: { service?: string[]; 'desired-state'?: string[] }): Promise<SwarmTask[]> {
    return docker.request('GET', '/tasks', { query: { filters } });
  },

  /** Attachable, so one-off containers can join a deployment's network to debug it. */
  createOverlayNetwork(docker: DockerClient, name: string, labels: Record<string, string>): Promise<{ Id: string }> {
    return docker.createNetwork(name, labels, 'overlay', { attachable: true });
  },
};
