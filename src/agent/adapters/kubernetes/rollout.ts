import type { V1Deployment, V1ObjectMeta, V1Pod, V1Secret } from '@kubernetes/client-node';
import { PatchStrategy, setHeaderOptions } from '@kubernetes/client-node';
import { UpstreamError, UpstreamTimeoutError, ValidationError } from '../../../errors';
import type { Logger } from '../../../logger';
import type { DeployTemplate } from '../../descriptor';
import type { Cluster } from './cluster';
import type { ClusterObjects } from './cluster-objects';
import { planDeployment, type MappingOptions } from './mapping';
import { LABEL_DEPLOYMENT, LABEL_KEY, LABEL_MANAGED_BY, LABEL_SERVICE, MANAGED_BY } from './names';
import { serviceState } from './states';

interface RolloutContext {
  cluster: Cluster;
  objects: ClusterObjects;
  mapping: MappingOptions;
  log: Logger;
  pullSecret(template: DeployTemplate, deployment: string, key: string): Promise<V1Secret | undefined>;
  create(key: string, template: DeployTemplate): Promise<string[]>;
  remove(key: string, ids: string[]): Promise<void>;
}

const mergePatch = setHeaderOptions('Content-Type', PatchStrategy.MergePatch);

/**
 * A redeploy as a rolling update of the same objects. A Deployment not ready within the rollout
 * timeout is undone like `kubectl rollout undo`: its previous ReplicaSet, whose pods never stopped
 * (maxUnavailable 0), serves again, and the answer is a 502 with the pods' reason.
 */
export async function replaceInPlace(
  context: RolloutContext,
  old: { key: string; ids: string[] },
  key: string,
  template: DeployTemplate,
): Promise<string[]> {
  const { cluster, objects, mapping, log } = context;
  const { core, apps, namespace } = cluster;
  const current = (await Promise.all(old.ids.map((id) => objects.readDeployment(id)))).find(
    (found) => found?.metadata?.labels?.[LABEL_MANAGED_BY] === MANAGED_BY,
  );
  const deployment = current?.metadata?.labels?.[LABEL_DEPLOYMENT];
  if (!deployment) {
    // Removed behind the agent's back: a new generation, then whatever is left of the old one goes.
    const ids = await context.create(key, template);
    await context
      .remove(old.key, old.ids)
      .catch((error: unknown) => log.error({ err: error, key: old.key }, 'could not remove the previous generation'));
    return ids;
  }

  const plan = planDeployment(template, deployment, key, mapping, await context.pullSecret(template, deployment, key));
  const before = await objects.list(deployment);
  const undo: { what: string; run: () => Promise<unknown> }[] = [];
  const names = plan.images.map((image) => image.name);
  try {
    if (plan.pullSecret) {
      const name = plan.pullSecret.metadata!.name!;
      const previous = await objects.putSecret(plan.pullSecret);
      const restored = previous && { ...previous, metadata: { name, labels: previous.metadata?.labels } };
      undo.push({
        what: `secret ${name}`,
        run: () =>
          restored
            ? cluster.call('update', 'secrets', () => core.replaceNamespacedSecret({ name, namespace, body: restored }))
            : objects.remove('secrets', name),
      });
    }
    for (const image of plan.images) {
      for (const claim of image.claims) {
        const name = claim.metadata!.name!;
        const existing = before.claims.find((found) => found.metadata?.name === name);
        if (existing) {
          await cluster.call('patch', 'persistentvolumeclaims', () =>
            core.patchNamespacedPersistentVolumeClaim(
              { name, namespace, body: { metadata: { labels: claim.metadata!.labels } } },
              mergePatch,
            ),
          );
          undo.push({ what: `claim ${name}`, run: () => relabel('persistentvolumeclaims', name, existing.metadata!) });
        } else {
          await cluster.call('create', 'persistentvolumeclaims', () =>
            core.createNamespacedPersistentVolumeClaim({ namespace, body: claim }),
          );
          undo.push({ what: `claim ${name}`, run: () => objects.remove('persistentvolumeclaims', name) });
        }
      }
    }

    const clusterIps = new Map<string, string>();
    for (const image of plan.images) {
      const body = image.serviceObject;
      if (!body) continue;
      const name = image.name;
      const existing = before.services.find((found) => found.metadata?.name === name);
      let ip: string | undefined;
      if (existing) {
        // Keep the cluster IP and the node ports: a port without one in the patch would get a new one.
        const ports = body.spec!.ports!.map((port) => ({
          ...port,
          nodePort:
            port.nodePort ?? existing.spec?.ports?.find((had) => had.port === port.port && had.protocol === port.protocol)?.nodePort,
        }));
        const patch = {
          metadata: { labels: body.metadata!.labels, annotations: body.metadata!.annotations },
          spec: { type: body.spec!.type, selector: body.spec!.selector, ports: body.spec!.type === 'NodePort' ? ports : body.spec!.ports },
        };
        const patched = await cluster.call('patch', 'services', () =>
          core.patchNamespacedService({ name, namespace, body: patch }, mergePatch),
        );
        ip = patched.spec?.clusterIP;
        const previous = {
          metadata: { labels: existing.metadata?.labels },
          spec: { type: existing.spec?.type, selector: existing.spec?.selector, ports: existing.spec?.ports },
        };
        undo.push({
          what: `service ${name}`,
          run: () => cluster.call('patch', 'services', () => core.patchNamespacedService({ name, namespace, body: previous }, mergePatch)),
        });
      } else {
        const created = await objects.createService(image, body);
        ip = created.spec?.clusterIP;
        undo.push({ what: `service ${name}`, run: () => objects.remove('services', name) });
      }
      if (ip) clusterIps.set(image.image.name, ip);
    }

    for (const image of plan.images) {
      const body = image.deployment(clusterIps);
      const name = image.name;
      const existing = before.deployments.find((found) => found.metadata?.name === name);
      if (existing) {
        // No resourceVersion: the controller writes the status all the time; the agent alone writes the spec.
        await cluster.call('update', 'deployments.apps', () => apps.replaceNamespacedDeployment({ name, namespace, body }));
        undo.push({ what: `deployment ${name}`, run: () => restore(existing) });
      } else {
        await cluster.call('create', 'deployments.apps', () => apps.createNamespacedDeployment({ namespace, body }));
        undo.push({ what: `deployment ${name}`, run: () => objects.remove('deployments.apps', name) });
      }
    }

    await waitForRollouts(names);
  } catch (error) {
    if (undo.length === 0) throw error;
    const failed: string[] = [];
    for (const step of undo.reverse()) {
      await step.run().catch((problem: unknown) => {
        log.error({ err: problem, step: step.what }, 'could not undo a step of a failed rollout');
        failed.push(`${step.what}: ${problem instanceof Error ? problem.message : String(problem)}`);
      });
    }
    const undone = failed.length
      ? ` Undoing it failed (${failed.join('; ')}); the previous pods keep running until the cluster can roll out.`
      : ' It was undone: the previous version keeps running.';
    const message = `${error instanceof Error ? error.message : String(error)}${undone}`;
    if (error instanceof ValidationError) throw new ValidationError(message, error.fields);
    if (error instanceof UpstreamTimeoutError) throw new UpstreamTimeoutError(message);
    throw new UpstreamError(message);
  }

  const after = await objects.list(deployment);
  const stale = (meta: V1ObjectMeta | undefined) => meta?.labels?.[LABEL_KEY] !== key;
  for (const [kind, list] of [
    ['deployments.apps', after.deployments],
    ['services', after.services],
    ['persistentvolumeclaims', after.claims],
  ] as const) {
    for (const object of list.filter((found) => stale(found.metadata))) {
      await objects
        .remove(kind, object.metadata!.name!)
        .catch((error: unknown) =>
          log.error({ err: error, object: object.metadata?.name }, 'could not remove an object of the previous generation'),
        );
    }
  }
  return names;

  async function relabel(kind: 'persistentvolumeclaims', name: string, meta: V1ObjectMeta): Promise<unknown> {
    return cluster.call('patch', kind, () =>
      core.patchNamespacedPersistentVolumeClaim({ name, namespace, body: { metadata: { labels: meta.labels } } }, mergePatch),
    );
  }

  /** `kubectl rollout undo`: the previous spec (template, replicas) and labels, as they were. */
  function restore(previous: V1Deployment): Promise<unknown> {
    const name = previous.metadata!.name!;
    const body: V1Deployment = {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name, namespace, labels: previous.metadata?.labels, annotations: previous.metadata?.annotations },
      spec: previous.spec,
    };
    return cluster.call('update', 'deployments.apps', () => apps.replaceNamespacedDeployment({ name, namespace, body }));
  }

  /** Only a failure that lasts until the deadline fails the rollout: the cluster's passing ones are waited out. */
  async function waitForRollouts(pending: string[]): Promise<void> {
    const timeoutSec = mapping.rolloutTimeoutSec;
    let last: { name: string; deployment?: V1Deployment } | undefined;
    let lastError: Error | undefined;
    await objects
      .waitUntil(
        async () => {
          try {
            for (const name of pending) {
              const found = await objects.readDeployment(name);
              if (!found || !rolledOut(found)) {
                last = { name, deployment: found };
                lastError = undefined;
                return undefined;
              }
            }
            return true;
          } catch (error) {
            lastError = error instanceof Error ? error : new Error(String(error));
            return undefined;
          }
        },
        timeoutSec,
        () => new RolloutFailed(''),
      )
      .catch(async (error: unknown) => {
        if (!(error instanceof RolloutFailed)) throw error;
        if (lastError) throw lastError;
        const why = last ? await newPodsReason(last.name, last.deployment).catch(() => undefined) : undefined;
        throw new UpstreamError(
          `The rollout of ${last?.name ?? 'the deployment'} in namespace ${namespace} did not become ready within ${timeoutSec} s${why ? ` (${why})` : ''}.`,
        );
      });
  }

  async function newPodsReason(name: string, found: V1Deployment | undefined): Promise<string | undefined> {
    const pods = await cluster.call('list', 'pods', () =>
      core.listNamespacedPod({
        namespace,
        labelSelector: `${LABEL_MANAGED_BY}=${MANAGED_BY},${LABEL_DEPLOYMENT}=${deployment},${LABEL_KEY}=${key}`,
      }),
    );
    const service = found?.metadata?.labels?.[LABEL_SERVICE];
    const own: V1Pod[] = pods.items.filter((pod) => pod.metadata?.labels?.[LABEL_SERVICE] === service);
    return serviceState(found, own).reason ?? (found ? undefined : `${name} is gone`);
  }
}

/** Every replica runs the new template and is available, and no old one is left (kubectl rollout status). */
function rolledOut(deployment: V1Deployment): boolean {
  const wanted = deployment.spec?.replicas ?? 1;
  const status = deployment.status ?? {};
  return (
    (status.observedGeneration ?? 0) >= (deployment.metadata?.generation ?? 0) &&
    (status.updatedReplicas ?? 0) >= wanted &&
    (status.replicas ?? 0) <= wanted &&
    (status.availableReplicas ?? 0) >= wanted
  );
}

class RolloutFailed extends Error {}
