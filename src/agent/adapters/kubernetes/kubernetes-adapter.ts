import type { PullCredentials } from '../../../engines/container-launcher';
import type { Logger } from '../../../logger';
import type { DeployTemplate } from '../../descriptor';
import type { Adapter } from '../adapter';
import { connectCluster, type Cluster, type ClusterOptions } from './cluster';
import { clusterObjects } from './cluster-objects';
import { planDeployment, type MappingOptions } from './mapping';
import { pullSecret } from './pull-secret';
import { replaceInPlace } from './rollout';

export interface KubernetesAdapterOptions extends Omit<MappingOptions, 'namespace'> {
  cluster: ClusterOptions | Cluster;
  deleteTimeoutSec: number;
  /** The agent's registry logins: a deployment whose images need one gets them as its pull secret. */
  credentials?: PullCredentials;
  log: Logger;
  /** How often a rollout or a removal is looked at while the agent waits for it. */
  pollIntervalMs?: number;
}

/** One namespace; service ids are Deployment names, and a redeploy rolls the same objects forward in place. */
export function createKubernetesAdapter(options: KubernetesAdapterOptions): Adapter {
  const cluster = 'call' in options.cluster ? options.cluster : connectCluster(options.cluster);
  const { namespace } = cluster;
  const mapping: MappingOptions = { ...options, namespace };
  const objects = clusterObjects(cluster, options.pollIntervalMs ?? 1000);
  const log = options.log;

  const secretOf = (template: DeployTemplate, deployment: string, key: string) =>
    options.credentials ? pullSecret(template, deployment, key, options.credentials) : Promise.resolve(undefined);

  async function create(key: string, template: DeployTemplate): Promise<string[]> {
    // The first generation names the objects; later ones update them in place.
    const plan = planDeployment(template, key, key, mapping, await secretOf(template, key, key));
    try {
      return await objects.make(plan);
    } catch (error) {
      await objects
        .removeDeployment(key, options.deleteTimeoutSec)
        .catch((cleanup: unknown) => log.error({ err: cleanup, key }, 'could not remove a failed generation'));
      throw error;
    }
  }

  async function remove(key: string, ids: string[]): Promise<void> {
    for (const deployment of await objects.deploymentsOf(key, ids)) {
      await objects.removeDeployment(deployment, options.deleteTimeoutSec);
    }
  }

  return {
    type: 'kubernetes',

    async metadata() {
      const version = await cluster.call('get', 'the version (/version)', () => cluster.version.getCode());
      return { version: version.gitVersion, type: 'kubernetes' };
    },

    create,

    status: (ids) => objects.status(ids),

    remove,

    replace: (old, key, template) =>
      replaceInPlace({ cluster, objects, mapping, log, pullSecret: secretOf, create, remove }, old, key, template),

    close: () => Promise.resolve(),
  };
}
