import type { V1Deployment, V1Pod, V1Secret, V1Service } from '@kubernetes/client-node';
import { UpstreamTimeoutError, ValidationError } from '../../../errors';
import type { ServiceStatus } from '../adapter';
import { statusCode, statusOf, type Cluster } from './cluster';
import { type DeploymentPlan, type ImagePlan } from './mapping';
import { LABEL_DEPLOYMENT, LABEL_MANAGED_BY, LABEL_SERVICE, MANAGED_BY, selector } from './names';
import { serviceState } from './states';

export type ClusterObjects = ReturnType<typeof clusterObjects>;

/** The reads and writes of the adapter's objects, shared by the adapter and the rollout. */
export function clusterObjects(cluster: Cluster, pollIntervalMs: number) {
  const { core, apps, namespace } = cluster;
  const owned = (deployment: string) => selector({ [LABEL_MANAGED_BY]: MANAGED_BY, [LABEL_DEPLOYMENT]: deployment });

  async function readDeployment(name: string): Promise<V1Deployment | undefined> {
    try {
      return await cluster.call('get', 'deployments.apps', () => apps.readNamespacedDeployment({ name, namespace }));
    } catch (error) {
      if (statusCode(error) === 404) return undefined;
      throw error;
    }
  }

  async function list(deployment: string) {
    const labelSelector = owned(deployment);
    const [deployments, services, claims, secrets, pods] = await Promise.all([
      cluster.call('list', 'deployments.apps', () => apps.listNamespacedDeployment({ namespace, labelSelector })),
      cluster.call('list', 'services', () => core.listNamespacedService({ namespace, labelSelector })),
      cluster.call('list', 'persistentvolumeclaims', () => core.listNamespacedPersistentVolumeClaim({ namespace, labelSelector })),
      cluster.call('list', 'secrets', () => core.listNamespacedSecret({ namespace, labelSelector })),
      cluster.call('list', 'pods', () => core.listNamespacedPod({ namespace, labelSelector })),
    ]);
    return { deployments: deployments.items, services: services.items, claims: claims.items, secrets: secrets.items, pods: pods.items };
  }

  /** One already gone counts as deleted. */
  async function remove(kind: 'deployments.apps' | 'services' | 'persistentvolumeclaims' | 'secrets', name: string): Promise<void> {
    const request = { name, namespace, propagationPolicy: 'Background' };
    const deletes = {
      'deployments.apps': () => apps.deleteNamespacedDeployment(request),
      services: () => core.deleteNamespacedService(request),
      persistentvolumeclaims: () => core.deleteNamespacedPersistentVolumeClaim(request),
      secrets: () => core.deleteNamespacedSecret(request),
    };
    await cluster
      .call('delete', kind, (): Promise<unknown> => deletes[kind]())
      .catch((error: unknown) => {
        if (statusCode(error) !== 404) throw error;
      });
  }

  /** Made, or its logins replaced; undefined when it was not there before. */
  async function putSecret(body: V1Secret): Promise<V1Secret | undefined> {
    const name = body.metadata!.name!;
    try {
      await cluster.call('create', 'secrets', () => core.createNamespacedSecret({ namespace, body }));
      return undefined;
    } catch (error) {
      if (statusCode(error) !== 409) throw error;
    }
    const [previous] = (
      await cluster.call('list', 'secrets', () => core.listNamespacedSecret({ namespace, fieldSelector: `metadata.name=${name}` }))
    ).items;
    await cluster.call('update', 'secrets', () => core.replaceNamespacedSecret({ name, namespace, body }));
    return previous;
  }

  return {
    list,
    remove,
    readDeployment,
    putSecret,

    /** PVCs, then Services (their cluster IPs are the links' addresses), then the Deployments. */
    async make(plan: DeploymentPlan): Promise<string[]> {
      if (plan.pullSecret) await putSecret(plan.pullSecret);
      for (const image of plan.images) {
        for (const claim of image.claims) {
          await cluster.call('create', 'persistentvolumeclaims', () =>
            core.createNamespacedPersistentVolumeClaim({ namespace, body: claim }),
          );
        }
      }
      const clusterIps = new Map<string, string>();
      for (const image of plan.images) {
        if (!image.serviceObject) continue;
        const created = await createService(image, image.serviceObject);
        if (created.spec?.clusterIP) clusterIps.set(image.image.name, created.spec.clusterIP);
      }
      for (const image of plan.images) {
        const body = image.deployment(clusterIps);
        await cluster.call('create', 'deployments.apps', () => apps.createNamespacedDeployment({ namespace, body }));
      }
      return plan.images.map((image) => image.name);
    },

    createService,

    async status(ids: string[]): Promise<ServiceStatus[]> {
      type Read = { deployment?: V1Deployment; failed?: { actualState: 'error'; reason: string } };
      const reads = await Promise.all(
        ids.map((id): Promise<Read> =>
          readDeployment(id).then(
            (deployment) => ({ deployment }),
            (error: unknown) => {
              const failed = readFailure(error);
              if (!failed) throw error;
              return { failed };
            },
          ),
        ),
      );
      const byDeployment = new Map<string, Promise<V1Pod[]>>();
      for (const { deployment } of reads) {
        const name = deployment?.metadata?.labels?.[LABEL_DEPLOYMENT];
        if (!name || byDeployment.has(name)) continue;
        byDeployment.set(
          name,
          cluster.call('list', 'pods', () => core.listNamespacedPod({ namespace, labelSelector: owned(name) })).then((pods) => pods.items),
        );
      }
      return Promise.all(
        ids.map(async (id, i): Promise<ServiceStatus> => {
          const { deployment, failed } = reads[i];
          if (failed) return { id, ...failed };
          const labels = deployment?.metadata?.labels ?? {};
          const pods = labels[LABEL_DEPLOYMENT] ? await byDeployment.get(labels[LABEL_DEPLOYMENT])! : [];
          const own = pods.filter((pod) => pod.metadata?.labels?.[LABEL_SERVICE] === labels[LABEL_SERVICE]);
          return { id, ...serviceState(deployment, own) };
        }),
      );
    },

    /**
     * By its key and by the label of any object carrying it or named in `ids`, so a deployment
     * redeployed many times, or left half-updated by a failed rollout, is found whole.
     */
    async deploymentsOf(key: string, ids: string[]): Promise<string[]> {
      const found = new Set([key]);
      const labelSelector = selector({ [LABEL_MANAGED_BY]: MANAGED_BY, 'platform.agent/key': key });
      const [deployments, services, claims, secrets] = await Promise.all([
        cluster.call('list', 'deployments.apps', () => apps.listNamespacedDeployment({ namespace, labelSelector })),
        cluster.call('list', 'services', () => core.listNamespacedService({ namespace, labelSelector })),
        cluster.call('list', 'persistentvolumeclaims', () => core.listNamespacedPersistentVolumeClaim({ namespace, labelSelector })),
        cluster.call('list', 'secrets', () => core.listNamespacedSecret({ namespace, labelSelector })),
      ]);
      const named = await Promise.all(ids.map((id) => readDeployment(id)));
      for (const object of [...deployments.items, ...services.items, ...claims.items, ...secrets.items, ...named]) {
        const labels = object?.metadata?.labels;
        if (labels?.[LABEL_MANAGED_BY] === MANAGED_BY && labels[LABEL_DEPLOYMENT]) found.add(labels[LABEL_DEPLOYMENT]);
      }
      return [...found];
    },

    async removeDeployment(deployment: string, timeoutSec: number): Promise<void> {
      const present = await list(deployment);
      for (const object of present.deployments) await remove('deployments.apps', object.metadata!.name!);
      for (const object of present.services) await remove('services', object.metadata!.name!);
      for (const object of present.claims) await remove('persistentvolumeclaims', object.metadata!.name!);
      for (const object of present.secrets) await remove('secrets', object.metadata!.name!);
      await waitUntil(
        async () => {
          const left = await list(deployment);
          const count = left.deployments.length + left.services.length + left.claims.length + left.secrets.length + left.pods.length;
          return count === 0 ? true : undefined;
        },
        timeoutSec,
        pollIntervalMs,
        () =>
          new UpstreamTimeoutError(
            `The objects of deployment ${deployment} in namespace ${namespace} were still being removed after ${timeoutSec} s; delete again to wait more.`,
          ),
      );
    },

    waitUntil: <T>(check: () => Promise<T | undefined>, timeoutSec: number, timedOut: () => Error) =>
      waitUntil(check, timeoutSec, pollIntervalMs, timedOut),
  };

  async function createService(image: ImagePlan, body: V1Service): Promise<V1Service> {
    try {
      return await cluster.call('create', 'services', () => core.createNamespacedService({ namespace, body }));
    } catch (error) {
      throw nodePortError(error, image) ?? error;
    }
  }
}

/** A node port the cluster refuses (outside its range, or taken) is a 422 on the template's host port. */
export function nodePortError(error: unknown, image: ImagePlan): ValidationError | undefined {
  const causes = statusOf(error)?.details?.causes ?? [];
  const problems = causes.flatMap((cause) => {
    const match = /^spec\.ports\[(\d+)\]\.nodePort$/.exec(cause.field ?? '');
    const field = match ? image.nodePortFields[Number(match[1])] : undefined;
    return field ? [{ field, message: cause.message ?? 'is refused' }] : [];
  });
  if (problems.length === 0) return undefined;
  return new ValidationError(
    `The cluster refused the host port of image "${image.image.name}" as a node port: ${problems.map((p) => `${p.field}: ${p.message}`).join('; ')}`,
    problems.map((p) => p.field),
  );
}

/**
 * A Deployment the cluster failed to read (its own 5xx) makes that service `error`; a cluster that is
 * unreachable, forbids the read or is too slow fails the whole request (undefined: rethrow).
 */
export function readFailure(error: unknown): { actualState: 'error'; reason: string } | undefined {
  const code = statusCode(error);
  if (code === undefined || code < 500 || code === 504) return undefined;
  const message = statusOf(error)?.message?.trim();
  return { actualState: 'error', reason: `HTTP ${code}${message ? `: ${message}` : ''}`.slice(0, 300) };
}

/** The cluster's failures included, until the deadline. */
async function waitUntil<T>(
  check: () => Promise<T | undefined>,
  timeoutSec: number,
  intervalMs: number,
  timedOut: () => Error,
): Promise<T> {
  const until = Date.now() + timeoutSec * 1000;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() >= until) throw timedOut();
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
