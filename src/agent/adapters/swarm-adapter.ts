import { DockerClient } from '../../engines/docker-client';
import { isEngineUnreachable } from '../../engines/engine-errors';
import { shellWords } from '../../engines/shell-words';
import type { Logger } from '../../logger';
import type { DeployTemplate, TemplateImage } from '../descriptor';
import type { Adapter, ServiceStatus } from './adapter';
import { LABEL_KEY, LABEL_SERVICE, aliasesOf, asUpstream, upstream, imageRef, safeName } from './engine-common';
import { swarmApi, type SwarmServiceSpec } from './swarm-api';

export interface SwarmAdapterOptions {
  dockerHost: string;
  publishMode: 'ingress' | 'host';
  endpointMode: 'vip' | 'dnsrr';
  /** Grace period of a task stopped by delete or redeploy before it is killed. */
  stopTimeoutSec?: number;
  log: Logger;
  docker?: DockerClient;
}

/**
 * Docker Swarm mode: a generation is an attachable overlay network `platform-<key>` plus one
 * service per image, `platform-<key>-<image>`, with replicas = `deployment.count`. The service ids
 * are the service names. Publish and endpoint modes come from the config: real clusters use
 * ingress + vip; single hosts without a routing mesh need host + dnsrr (docs/contract.md "Swarm publish and endpoint modes").
 * Images are not pulled by the agent: swarm nodes pull what they run.
 */
export function createSwarmAdapter(options: SwarmAdapterOptions): Adapter {
  const docker = options.docker ?? new DockerClient({ host: options.dockerHost });
  const { log } = options;
  const network = (key: string) => `platform-${key}`;

  function serviceSpec(key: string, template: DeployTemplate, image: TemplateImage): SwarmServiceSpec {
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
        RestartPolicy: { Condition: 'any' },
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
    // Tasks leave the overlay network a moment after their service is gone; the cluster refuses
    // to remove it until then. The node's local copy goes once the last task container stops.
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

    // A fixed host port with several replicas is no conflict here: the routing mesh shares it
    // (ingress), or the swarm puts one replica per node and leaves the rest pending (host).
    async create(key, template) {
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
    },

    status: (ids) => upstream(Promise.all(ids.map((id) => serviceStatus(docker, id)))),

    remove: (key, ids) => upstream(removeGeneration(key, ids)),

    close: () => (options.docker ? Promise.resolve() : docker.close()),
  };
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
