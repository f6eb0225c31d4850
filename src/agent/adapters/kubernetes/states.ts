import type { V1ContainerStatus, V1Deployment, V1Pod } from '@kubernetes/client-node';

/**
 * In this order: `not found` (no Deployment), `stopped` (0 replicas), `failed` (a pod cannot start,
 * or the Deployment cannot make pods or missed its deadline), `running` (all ready), else `pending`.
 */
export interface ServiceState {
  actualState: 'pending' | 'running' | 'stopped' | 'failed' | 'not found';
  reason?: string;
}

/** Waiting reasons that do not pass by themselves: the kubelet backs off, or cannot start the container at all. */
const FAILED_WAITING = new Set([
  'CrashLoopBackOff',
  'ImagePullBackOff',
  'ErrImagePull',
  'ErrImageNeverPull',
  'InvalidImageName',
  'CreateContainerConfigError',
  'CreateContainerError',
  'RunContainerError',
]);

const MAX_REASON = 300;

export function serviceState(deployment: V1Deployment | undefined, pods: readonly V1Pod[]): ServiceState {
  if (!deployment) return { actualState: 'not found' };
  const wanted = deployment.spec?.replicas ?? 1;
  if (wanted === 0) return { actualState: 'stopped' };
  const live = pods.filter((pod) => !pod.metadata?.deletionTimestamp);

  const failure = live.map(podFailure).find((reason) => reason !== undefined) ?? deploymentFailure(deployment);
  if (failure) return { actualState: 'failed', reason: clip(failure) };

  const ready = live.filter(isReady).length;
  if (ready >= wanted) return { actualState: 'running' };
  return {
    actualState: 'pending',
    reason: clip(
      live
        .filter((pod) => !isReady(pod))
        .map(podWait)
        .find((reason) => reason !== undefined) ?? `${ready} of ${wanted} pods ready`,
    ),
  };
}

function podFailure(pod: V1Pod): string | undefined {
  const status = pod.status;
  if (status?.phase === 'Failed') return said(status.reason ?? 'Failed', status.message);
  for (const container of containers(pod)) {
    const waiting = container.state?.waiting;
    if (waiting?.reason && FAILED_WAITING.has(waiting.reason)) return said(waiting.reason, waiting.message);
    const terminated = container.state?.terminated;
    if (terminated && terminated.exitCode !== 0) {
      return said(terminated.reason ?? 'Error', terminated.message ?? `exited with code ${terminated.exitCode}`);
    }
  }
  return undefined;
}

function deploymentFailure(deployment: V1Deployment): string | undefined {
  for (const condition of deployment.status?.conditions ?? []) {
    if (condition.type === 'ReplicaFailure' && condition.status === 'True')
      return said(condition.reason ?? 'ReplicaFailure', condition.message);
    if (condition.type === 'Progressing' && condition.status === 'False')
      return said(condition.reason ?? 'NotProgressing', condition.message);
  }
  return undefined;
}

function podWait(pod: V1Pod): string | undefined {
  const scheduled = pod.status?.conditions?.find((condition) => condition.type === 'PodScheduled');
  if (scheduled?.status === 'False') return said(scheduled.reason ?? 'Unschedulable', scheduled.message);
  for (const container of containers(pod)) {
    const waiting = container.state?.waiting;
    if (waiting?.reason) return said(waiting.reason, waiting.message);
  }
  const ready = pod.status?.conditions?.find((condition) => condition.type === 'Ready');
  if (ready?.status === 'False') return said(ready.reason ?? 'NotReady', ready.message);
  return pod.status?.phase ? said(pod.status.phase) : undefined;
}

function isReady(pod: V1Pod): boolean {
  return pod.status?.conditions?.some((condition) => condition.type === 'Ready' && condition.status === 'True') ?? false;
}

function containers(pod: V1Pod): V1ContainerStatus[] {
  return [...(pod.status?.initContainerStatuses ?? []), ...(pod.status?.containerStatuses ?? [])];
}

function said(reason: string, message?: string): string {
  return message?.trim() ? `${reason}: ${message.trim()}` : reason;
}

function clip(text: string): string {
  return text.length > MAX_REASON ? `${text.slice(0, MAX_REASON - 1)}…` : text;
}
