import { DockerClient } from '../../engines/docker-client';
import { ContainerLauncher, type PullCredentials } from '../../engines/container-launcher';
import type { ServiceDefinition } from '../../engines/container-spec';
import { isEngineUnreachable } from '../../engines/engine-errors';
import type { Logger } from '../../logger';
import type { DeployTemplate } from '../descriptor';
import type { Adapter, ServiceStatus } from './adapter';
import {
  LABEL_KEY,
  LABEL_SERVICE,
  aliasesOf,
  asUpstream,
  upstream,
  checkHostPorts,
  imageRef,
  restartPolicyOf,
  safeName,
} from './engine-common';

/** Every container answers on its generation's network to its image's name and to every alias other images link it by. */
export function createDockerAdapter(options: {
  dockerHost: string;
  log: Logger;
  stopTimeoutSec?: number;
  credentials?: PullCredentials;
  docker?: DockerClient;
}): Adapter {
  const docker = options.docker ?? new DockerClient({ host: options.dockerHost });
  const launcher = new ContainerLauncher(docker, options.credentials);
  const log = options.log;

  /** Created but not started; on failure everything made is removed. */
  async function prepare(key: string, template: DeployTemplate): Promise<string[]> {
    checkHostPorts(template);
    const refs = template.images.map((image) => imageRef(template, image));
    for (const ref of new Set(refs)) await launcher.ensureImage(ref);
    const labels = { [LABEL_KEY]: key };
    const names: string[] = [];
    try {
      await docker.createNetwork(network(key), labels);
      const specs = template.images.flatMap((image, i) =>
        Array.from({ length: image.deployment?.count ?? 1 }, (_, k) => {
          const name = `${network(key)}-${safeName(image.name)}-${k + 1}`;
          const volumesFrom = (image.volumes_from ?? []).map((from) => `${network(key)}-${safeName(from.service)}-1`);
          const definition: ServiceDefinition = {
            name,
            image: refs[i],
            command: image.command,
            environment: image.environment ?? [],
            ports: image.ports ?? [],
            expose: image.expose ?? [],
            volumes: image.volumes ?? [],
            volumesFrom,
            links: [],
            labels: { ...labels, [LABEL_SERVICE]: image.name },
            network: { name: network(key), aliases: aliasesOf(template, image) },
            restart: restartPolicyOf(image),
          };
          return { name, definition, after: volumesFrom.length > 0 };
        }),
      );
      // The engine takes creates in parallel; containers that take volumes from another come after, in template order.
      const created = await Promise.allSettled(
        specs
          .filter((s) => !s.after)
          .map(async ({ name, definition }) => {
            await launcher.create(definition);
            names.push(name);
          }),
      );
      const failed = created.find((outcome) => outcome.status === 'rejected');
      if (failed) throw failed.reason;
      for (const { name, definition } of specs.filter((s) => s.after)) {
        await launcher.create(definition);
        names.push(name);
      }
      names.sort((a, b) => specs.findIndex((s) => s.name === a) - specs.findIndex((s) => s.name === b));
      return names;
    } catch (error) {
      await removeGeneration(key, names);
      throw asUpstream(error);
    }
  }

  async function startAll(names: string[]): Promise<void> {
    await Promise.all(names.map((name) => docker.startContainer(name)));
  }

  /** Also any other container carrying the key; already gone is fine. */
  async function removeGeneration(key: string, names: string[]): Promise<void> {
    const labelled = await docker.listContainers({ all: true, labels: { [LABEL_KEY]: key } });
    const all = new Set([...names, ...labelled.map((container) => container.Id)]);
    for (const name of all) {
      await docker.removeContainer(name, { force: true, removeVolumes: true }).catch((error: unknown) => {
        if ((error as { httpStatus?: number }).httpStatus !== 404) throw error;
      });
    }
    for (const network of await docker.listNetworks({ labels: { [LABEL_KEY]: key } })) {
      await docker.removeNetwork(network.Id).catch((error: unknown) => {
        if ((error as { httpStatus?: number }).httpStatus !== 404) throw error;
      });
    }
  }

  return {
    type: 'docker',

    async metadata() {
      const version = await upstream(docker.version());
      return { version: version.Version, type: 'docker' };
    },

    async create(key, template) {
      const names = await prepare(key, template);
      try {
        await startAll(names);
        return names;
      } catch (error) {
        await removeGeneration(key, names).catch((cleanup: unknown) =>
          log.error({ err: cleanup, key }, 'could not remove a failed generation'),
        );
        throw asUpstream(error);
      }
    },

    /**
     * Both generations may publish the same host ports: the new one is created, the old stopped, the new
     * started, and only then the old removed. If the new one does not start, the old one starts again.
     */
    async replace(old, key, template) {
      const names = await prepare(key, template);
      const stopped: string[] = [];
      try {
        await Promise.all(
          old.ids.map(async (id) => {
            const container = await docker.inspectContainer(id);
            if (!container?.State.Running) return;
            stopped.push(id);
            await docker.stopContainer(id, options.stopTimeoutSec ?? 10);
          }),
        );
        await startAll(names);
      } catch (error) {
        await removeGeneration(key, names).catch((cleanup: unknown) =>
          log.error({ err: cleanup, key }, 'could not remove a failed generation'),
        );
        for (const id of stopped) {
          await docker
            .startContainer(id)
            .catch((restart: unknown) => log.error({ err: restart, id }, 'could not restart the previous generation'));
        }
        throw asUpstream(error);
      }
      await removeGeneration(old.key, old.ids).catch((error: unknown) =>
        log.error({ err: error, key: old.key }, 'could not remove the previous generation'),
      );
      return names;
    },

    status: (ids) => upstream(Promise.all(ids.map((id) => containerStatus(docker, id)))),

    remove: (key, ids) => upstream(removeGeneration(key, ids)),

    close: () => (options.docker ? Promise.resolve() : docker.close()),
  };
}

const network = (key: string): string => `platform-${key}`;

/** docs/contract.md "Deployment actualState": pending, running, stopped, failed, not found, error. */
async function containerStatus(docker: DockerClient, id: string): Promise<ServiceStatus> {
  try {
    const container = await docker.inspectContainer(id);
    if (!container) return { id, actualState: 'not found' };
    const state = container.State;
    switch (state.Status) {
      case 'created':
      case 'restarting':
        return { id, actualState: 'pending' };
      case 'running':
        return { id, actualState: state.Restarting ? 'pending' : 'running' };
      case 'paused':
      case 'removing':
        return { id, actualState: 'stopped' };
      case 'exited':
        return { id, actualState: state.ExitCode === 0 ? 'stopped' : 'failed' };
      case 'dead':
        return { id, actualState: 'failed' };
      default:
        return { id, actualState: 'error' };
    }
  } catch (error) {
    // The engine being down fails the request (502); one container it cannot describe is "error".
    if (isEngineUnreachable(error) || (error as { httpStatus?: number }).httpStatus === 504) throw error;
    return { id, actualState: 'error' };
  }
}
