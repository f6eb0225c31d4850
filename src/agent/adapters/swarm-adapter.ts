import { setTimeout as sleep } from 'node:timers/promises';
import { DockerClient } from '../../engines/docker-client';
import { isEngineUnreachable } from '../../engines/engine-errors';
import { shellWords } from '../../engines/shell-words';
import { UpstreamError } from '../../errors';
import type { Logger } from '../../logger';
import type { DeployTemplate, DeployImage } from '../descriptor';
import type { Adapter, ServiceStatus } from './adapter';
import {
  LABEL_KEY,
  LABEL_SERVICE,
  aliasesOf,
  asUpstream,
  upstream,
  imageRef,
  restartPolicyOf,
  safeName,
  swarmRestartPolicy,
} from './engine-common';
import { swarmApi, type SwarmServiceSpec } from './swarm-api';

export interface SwarmAdapterOptions {
  dockerHost: string;
  publishMode: 'ingress' | 'host';
  endpointMode: 'vip' | 'dnsrr';
  stopTimeoutSec?: number;
  /** How long a redeploy watches its new services start (nodes may be pulling). */
  startWatchMs?: number;
  log: Logger;
  docker?: DockerClient;
}

/**
 * Publish and endpoint modes come from the config: real clusters use ingress + vip; single hosts
 * without a routing mesh need host + dnsrr. Swarm nodes pull what they run, not the agent.
 */
export function createSwarmAdapter(options: SwarmAdapterOptions): Adapter {
  const docker = options.docker ?? new DockerClient({ host: options.dockerHost });
  const { log } = options;
  const network = (key: string) => `platform-${key}`;

  function serviceSpec(key: string, template: DeployTemplate, image: DeployImage): SwarmServiceSpec {
    const labels = { [LABEL_KEY]: key, [LABEL_SERVICE]: image.name };
    const args = image.command?.trim() ? shellWords(image.command) : undefined;
    return {
      Name: `${network(key)}-${safeName(image.name)}`,
      Labels: labels,
      TaskTemplate: {
        ContainerSpec: {
          Image: imageRef(template, image),
          ...(args ? { Args: args } : {}),
          Env: (image.environment ?? []).map(({ variable, value }) => `${variable}=${value}`),
          Labels: labels,
          Mounts: (image.volumes ?? []).map((volume) =>
            volume.host_path
              ? { Type: 'bind' as const, Source: volume.host_path, Target: volume.container_path }
              : { Type: 'volume' as const, Target: volume.container_path },
          ),
          StopGracePeriod: (options.stopTimeoutSec ?? 10) * 1_000_000_000,
        },
        Networks: [{ Target: network(key), Aliases: aliasesOf(template, image) }],
        RestartPolicy: swarmRestartPolicy(restartPolicyOf(image)),
      },
      Mode: { Replicated: { Replicas: image.deployment?.count ?? 1 } },
      EndpointSpec: {
        Mode: options.endpointMode,
        Ports: (image.ports ?? []).map((port) => ({
          Protocol: port.proto === 'UDP' ? ('udp' as const) : ('tcp' as const),
          TargetPort: port.container_port,
          ...(port.host_port ? { PublishedPort: port.host_port } : {}),
          PublishMode: options.publishMode,
        })),
      },
    };
  }

  async function removeGeneration(key: string, ids: string[]): Promise<void> {
    const labelled = await swarmApi.listServices(docker, { [LABEL_KEY]: key });
    for (const id of new Set([...ids, ...labelled.map((service) => service.Spec.Name)])) {
      await swarmApi.removeService(docker, id).catch((error: unknown) => {
        if ((error as { httpStatus?: number }).httpStatus !== 404) throw error;
      });
    }
    // The cluster refuses to remove the network until the tasks have left it, a moment after their
    // service is gone; the node's local copy goes once the last task container stops.
    for (const net of await docker.listNetworks({ labels: { [LABEL_KEY]: key } })) {
      for (let attempt = 0; ; attempt++) {
        try {
          await docker.removeNetwork(net.Id);
          break;
        } catch (error) {
          if ((error as { httpStatus?: number }).httpStatus === 404) break;
          if (attempt >= 40) throw error;
          await new Promise((resolve) => setTimeout(resolve, 250));
        }
      }
    }
  }

  return {
    type: 'swarm',

    async metadata() {
      try {
        const version = await docker.version();
        const swarm = await swarmApi.inspect(docker);
        return { version: swarm ? version.Version : `${version.Version} (not a swarm manager)`, type: 'swarm' };
      } catch (error) {
        throw asUpstream(error);
      }
    },

    create,

    /**
     * The old generation goes only once the new services started: a task of theirs that fails or is
     * rejected first removes the new generation instead.
     */
    async replace(old, key, template) {
      const names = await create(key, template);
      try {
        await watchStart(names);
      } catch (error) {
        await removeGeneration(key, names).catch((cleanup: unknown) =>
          log.error({ err: cleanup, key }, 'could not remove a failed generation'),
        );
        throw asUpstream(error);
      }
      await removeGeneration(old.key, old.ids).catch((error: unknown) =>
        log.error({ err: error, key: old.key }, 'could not remove the previous generation'),
      );
      return names;
    },

    status: (ids) => upstream(Promise.all(ids.map((id) => serviceStatus(docker, id)))),

    remove: (key, ids) => upstream(removeGeneration(key, ids)),

    close: () => (options.docker ? Promise.resolve() : docker.close()),
  };

  // A fixed host port with several replicas is no conflict: ingress shares it, and host mode puts
  // one replica per node and leaves the rest pending.
  async function create(key: string, template: DeployTemplate): Promise<string[]> {
    const specs = template.images.map((image) => serviceSpec(key, template, image));
    const names: string[] = [];
    try {
      await swarmApi.createOverlayNetwork(docker, network(key), { [LABEL_KEY]: key });
      for (const spec of specs) {
        const created = await swarmApi.createService(docker, spec);
        if (created.Warnings?.length) log.debug({ service: spec.Name, warnings: created.Warnings }, 'swarm warnings');
        names.push(spec.Name);
      }
      return names;
    } catch (error) {
      await removeGeneration(key, names).catch((cleanup: unknown) =>
        log.error({ err: cleanup, key }, 'could not remove a failed generation'),
      );
      throw asUpstream(error);
    }
  }

  /**
   * Until every service runs its replicas or nothing more can be learnt (the rest wait for host ports
   * the old tasks hold, or `startWatchMs` passed); rejects with the engine's reason on a failed task.
   */
  async function watchStart(names: string[]): Promise<void> {
    const until = Date.now() + (options.startWatchMs ?? 300_000);
    for (;;) {
      let waiting = false;
      for (const name of names) {
        const service = await swarmApi.inspectService(docker, name);
        const wanted = service?.Spec.Mode.Replicated?.Replicas ?? 1;
        const tasks = service ? await swarmApi.listTasks(docker, { service: [service.ID] }) : [];
        const failed = tasks.find((task) => task.Status.State === 'failed' || task.Status.State === 'rejected');
        if (failed)
          throw new UpstreamError(`Service ${name} could not start: ${failed.Status.Err ?? failed.Status.Message ?? failed.Status.State}`);
        const current = tasks.filter((task) => task.DesiredState === 'running');
        if (current.filter((task) => task.Status.State === 'running').length >= wanted) continue;
        const unplaced =
          current.length >= wanted &&
          current.every((task) => task.Status.State === 'running' || (task.Status.State === 'pending' && task.Status.Err));
        if (!unplaced) waiting = true;
      }
      if (!waiting || Date.now() > until) return;
      await sleep(250);
    }
  }
}

/** `pending` until as many tasks run as the service wants, then `running` (docs/contract.md "Deployment actualState"). */
async function serviceStatus(docker: DockerClient, id: string): Promise<ServiceStatus> {
  try {
    const service = await swarmApi.inspectService(docker, id);
    if (!service) return { id, actualState: 'not found' };
    const wanted = service.Spec.Mode.Replicated?.Replicas ?? 1;
    const tasks = await swarmApi.listTasks(docker, { service: [service.ID], 'desired-state': ['running'] });
    const running = tasks.filter((task) => task.Status.State === 'running').length;
    if (wanted === 0) return { id, actualState: 'stopped' };
    return { id, actualState: running >= wanted ? 'running' : 'pending' };
  } catch (error) {
    if (isEngineUnreachable(error) || (error as { httpStatus?: number }).httpStatus === 504) throw error;
    return { id, actualState: 'error' };
  }
}
