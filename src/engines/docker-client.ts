import { createReadStream } from 'node:fs';
import { UpstreamError } from '../errors';
import { EngineHttp, enginePath as path, labelFilter, orNull, type EngineConnectionOptions } from './docker-http';
import { subscribeEvents, type EventSubscription, type EventsOptions } from './docker-events';
import { readLogs, type LogEntry, type LogsOptions } from './docker-logs';
import { buildFailed, buildQuery, readBuildProgress, type BuildRequest } from './docker-build';
import { pullQuery, readPullProgress, registryAuthHeader } from './docker-pull';
import type {
  ContainerCreateBody,
  ContainerInspect,
  ContainerSummary,
  EngineEvent,
  EngineVersion,
  ImageInspect,
  IpamSubnet,
  NetworkSummary,
  RegistryAuth,
} from './docker-types';
import { EngineNotFoundError, EngineRequestError } from './engine-errors';
import { tarOf } from './tar';

export interface DockerClientOptions extends EngineConnectionOptions {
  /** Pulls stream progress for minutes; this is the longest silence allowed. */
  pullTimeoutMs?: number;
}

export class DockerClient extends EngineHttp {
  private readonly pullTimeoutMs: number;

  constructor(options: DockerClientOptions = {}) {
    super(options);
    this.pullTimeoutMs = options.pullTimeoutMs ?? 300_000;
  }

  async ping(): Promise<boolean> {
    return (await this.request<string>('GET', '/_ping')) === 'OK';
  }

  version(): Promise<EngineVersion> {
    return this.request('GET', '/version');
  }

  inspectImage(ref: string): Promise<ImageInspect> {
    return this.request('GET', path('images', ref, 'json'));
  }

  listAllImages(): Promise<{ Id: string; RepoTags: string[] | null; Size: number; VirtualSize?: number; Created: number }[]> {
    return this.request('GET', '/images/json');
  }

  /** Local images whose reference matches (`tutum/wordpress` matches every tag of it). */
  listImages(reference: string): Promise<{ Id: string; RepoTags: string[] | null }[]> {
    return this.request('GET', '/images/json', { query: { filters: { reference: [reference] } } });
  }

  async imageExists(ref: string): Promise<boolean> {
    return (await orNull(this.inspectImage(ref))) !== null;
  }

  async pullImage(ref: string, options: { auth?: RegistryAuth } = {}): Promise<void> {
    const headers = options.auth ? { 'x-registry-auth': registryAuthHeader(options.auth) } : undefined;
    try {
      const response = await this.stream('POST', '/images/create', {
        query: pullQuery(ref),
        headers,
        timeoutMs: this.pullTimeoutMs,
      });
      await readPullProgress(ref, response.body);
    } catch (error) {
      // 404 (no such image upstream) and 500 (registry refused) are the registry's failure, not ours.
      if (error instanceof EngineNotFoundError) throw new UpstreamError(`pulling image ${ref} failed: ${error.message}`);
      if (error instanceof EngineRequestError) throw new UpstreamError(`pulling image ${ref} failed: ${error.engineMessage}`);
      throw error;
    }
  }

  /** A failed build is a 422 naming `what`; the engine removes its intermediate containers and tags nothing. */
  async buildImage(what: string, request: BuildRequest, options: { onLine: (line: string) => void }): Promise<void> {
    const archive = createReadStream(request.contextTar);
    let failure: unknown;
    archive.on('error', (error) => (failure = error));
    try {
      const response = await this.stream('POST', '/build', {
        query: buildQuery(request),
        rawBody: archive,
        headers: { 'content-type': 'application/x-tar' },
        timeoutMs: this.pullTimeoutMs,
      });
      await readBuildProgress(what, response.body, options.onLine);
    } catch (error) {
      // The context's own failure (unreadable) is what stopped the upload.
      if (failure instanceof Error) throw failure;
      if (error instanceof EngineRequestError) throw buildFailed(what, error.engineMessage);
      throw error;
    } finally {
      archive.destroy();
    }
  }

  async removeImage(ref: string, options: { force?: boolean } = {}): Promise<void> {
    await this.request('DELETE', path('images', ref), { query: { force: options.force ?? false } });
  }

  createContainer(name: string | undefined, spec: ContainerCreateBody): Promise<{ Id: string; Warnings: string[] }> {
    return this.request('POST', '/containers/create', { query: { name }, body: spec });
  }

  async startContainer(id: string): Promise<void> {
    // Starting joins networks and sets up firewall rules: slow on a loaded engine.
    await this.request('POST', path('containers', id, 'start'), { timeoutMs: Math.max(this.timeoutMs, 60_000) });
  }

  async stopContainer(id: string, timeoutSec = 10): Promise<void> {
    await this.request('POST', path('containers', id, 'stop'), {
      query: { t: timeoutSec },
      timeoutMs: this.timeoutMs + timeoutSec * 1000,
    });
  }

  async removeContainer(id: string, options: { force?: boolean; removeVolumes?: boolean } = {}): Promise<void> {
    await this.request('DELETE', path('containers', id), {
      query: { force: options.force ?? false, v: options.removeVolumes ?? false },
    });
  }

  /** A running container may be renamed: its network aliases stay. */
  async renameContainer(id: string, name: string): Promise<void> {
    await this.request('POST', path('containers', id, 'rename'), { query: { name } });
  }

  inspectContainer(id: string): Promise<ContainerInspect | null> {
    return orNull(this.request<ContainerInspect>('GET', path('containers', id, 'json')));
  }

  listContainers(options: { all?: boolean; labels?: Record<string, string> } = {}): Promise<ContainerSummary[]> {
    const label = labelFilter(options.labels);
    return this.request('GET', '/containers/json', {
      query: { all: options.all ?? false, filters: label ? { label } : undefined },
    });
  }

  async waitContainer(id: string, timeoutMs = 60_000): Promise<number> {
    const result = await this.request<{ StatusCode: number }>('POST', path('containers', id, 'wait'), { timeoutMs });
    return result.StatusCode;
  }

  async logs(id: string, options: LogsOptions = {}): Promise<LogEntry[]> {
    const container = await this.inspectContainer(id);
    if (!container) throw new EngineNotFoundError(`No such container: ${id}`);
    return readLogs(this, container, options);
  }

  createNetwork(
    name: string,
    labels: Record<string, string> = {},
    driver = 'bridge',
    options: { attachable?: boolean; internal?: boolean; subnet?: string; ipam?: IpamSubnet[] } = {},
  ): Promise<{ Id: string }> {
    return this.request('POST', '/networks/create', {
      // A loaded engine takes its time over bridges and firewall rules.
      timeoutMs: Math.max(this.timeoutMs, 60_000),
      body: {
        Name: name,
        Driver: driver,
        Labels: labels,
        CheckDuplicate: true,
        Attachable: options.attachable ?? false,
        Internal: options.internal ?? false,
        ...(options.subnet ? { IPAM: { Driver: 'default', Config: [{ Subnet: options.subnet }] } } : {}),
        ...(options.ipam ? { IPAM: { Driver: 'default', Config: options.ipam } } : {}),
      },
    });
  }

  async removeNetwork(id: string): Promise<void> {
    await this.request('DELETE', path('networks', id));
  }

  inspectNetwork(id: string): Promise<NetworkSummary | null> {
    return orNull(this.request<NetworkSummary>('GET', path('networks', id)));
  }

  listNetworks(options: { labels?: Record<string, string> } = {}): Promise<NetworkSummary[]> {
    const label = labelFilter(options.labels);
    return this.request('GET', '/networks', { query: { filters: label ? { label } : undefined } });
  }

  async connectNetwork(network: string, container: string, aliases: string[] = [], ipv4Address?: string): Promise<void> {
    await this.request('POST', path('networks', network, 'connect'), {
      body: {
        Container: container,
        EndpointConfig: { Aliases: aliases, ...(ipv4Address ? { IPAMConfig: { IPv4Address: ipv4Address } } : {}) },
      },
    });
  }

  /** Creates the named volume, or answers the one that exists (the engine's create is idempotent). */
  createVolume(name: string, labels: Record<string, string> = {}): Promise<{ Name: string }> {
    return this.request('POST', '/volumes/create', { body: { Name: name, Labels: labels } });
  }

  async listVolumes(
    options: { labels?: Record<string, string> } = {},
  ): Promise<Array<{ Name: string; Labels: Record<string, string> | null }>> {
    const label = labelFilter(options.labels);
    const result = await this.request<{ Volumes: Array<{ Name: string; Labels: Record<string, string> | null }> | null }>(
      'GET',
      '/volumes',
      {
        query: { filters: label ? { label } : undefined },
      },
    );
    return result.Volumes ?? [];
  }

  inspectVolume(name: string): Promise<{ Name: string } | null> {
    return orNull(this.request<{ Name: string }>('GET', path('volumes', name)));
  }

  async removeVolume(name: string): Promise<void> {
    await this.request('DELETE', path('volumes', name));
  }

  /** Before it starts: the engine unpacks the tar at `/`, parent directories included. */
  async putFiles(id: string, files: Array<{ target: string; content: string; mode?: number }>): Promise<void> {
    const archive = await tarOf(files);
    await this.request('PUT', path('containers', id, 'archive'), {
      query: { path: '/' },
      rawBody: archive,
      headers: { 'content-type': 'application/x-tar' },
    });
  }

  events(options: EventsOptions, onEvent: (event: EngineEvent) => void): Promise<EventSubscription> {
    return subscribeEvents(this, options, onEvent);
  }
}
