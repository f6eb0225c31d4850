import { expect } from '@jest/globals';
import { ApiException, type V1Deployment, type V1Pod } from '@kubernetes/client-node';
import { clusterError } from '../../src/agent/adapters/kubernetes/cluster';
import { readFailure } from '../../src/agent/adapters/kubernetes/cluster-objects';
import { serviceState } from '../../src/agent/adapters/kubernetes/states';
import { UpstreamError } from '../../src/errors';

/**
 * A service's state from its Deployment and pods, as the cluster reports them (the shapes are the
 * API's; the real cluster's phases are exercised in kubernetes-adapter.test.ts).
 */
const deployment = (replicas: number, conditions: NonNullable<V1Deployment['status']>['conditions'] = []): V1Deployment => ({
  metadata: { name: 'platform-d1-aaaaaa-web' },
  spec: { replicas, selector: {}, template: {} },
  status: { conditions },
});

const ready = (name: string): V1Pod => ({
  metadata: { name },
  status: {
    phase: 'Running',
    conditions: [{ type: 'Ready', status: 'True' }],
    containerStatuses: [{ name: 'web', image: 'x', imageID: '', ready: true, restartCount: 0, state: { running: {} } }],
  },
});

const waiting = (reason: string, message?: string): V1Pod => ({
  metadata: { name: 'waiting' },
  status: {
    phase: 'Pending',
    conditions: [
      { type: 'PodScheduled', status: 'True' },
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [web]' },
    ],
    containerStatuses: [{ name: 'web', image: 'x', imageID: '', ready: false, restartCount: 0, state: { waiting: { reason, message } } }],
  },
});

describe('kubernetes service states', () => {
  test('not found, stopped, running', () => {
    expect(serviceState(undefined, [])).toEqual({ actualState: 'not found' });
    expect(serviceState(deployment(0), [])).toEqual({ actualState: 'stopped' });
    expect(serviceState(deployment(2), [ready('a'), ready('b')])).toEqual({ actualState: 'running' });
  });

  test('pending while scheduling, pulling or starting, with the reason', () => {
    expect(serviceState(deployment(1), [])).toEqual({ actualState: 'pending', reason: '0 of 1 pods ready' });
    expect(
      serviceState(deployment(1), [
        {
          metadata: { name: 'p' },
          status: {
            phase: 'Pending',
            conditions: [
              { type: 'PodScheduled', status: 'False', reason: 'Unschedulable', message: '0/1 nodes are available: 1 Insufficient cpu.' },
            ],
          },
        },
      ]),
    ).toEqual({ actualState: 'pending', reason: 'Unschedulable: 0/1 nodes are available: 1 Insufficient cpu.' });
    expect(serviceState(deployment(2), [ready('a'), waiting('ContainerCreating')])).toEqual({
      actualState: 'pending',
      reason: 'ContainerCreating',
    });
    const notReady = ready('c');
    notReady.status!.conditions = [
      { type: 'Ready', status: 'False', reason: 'ContainersNotReady', message: 'containers with unready status: [web]' },
    ];
    expect(serviceState(deployment(1), [notReady])).toEqual({
      actualState: 'pending',
      reason: 'ContainersNotReady: containers with unready status: [web]',
    });
  });

  test('failed: a pod that cannot pull or keeps crashing, a failed pod, pods the Deployment cannot make', () => {
    expect(serviceState(deployment(1), [waiting('ImagePullBackOff', 'Back-off pulling image "nope:1"')])).toEqual({
      actualState: 'failed',
      reason: 'ImagePullBackOff: Back-off pulling image "nope:1"',
    });
    // One bad pod among ready ones fails the service.
    expect(serviceState(deployment(2), [ready('a'), waiting('CrashLoopBackOff', 'back-off 10s restarting failed container=web')])).toEqual({
      actualState: 'failed',
      reason: 'CrashLoopBackOff: back-off 10s restarting failed container=web',
    });
    const exited = ready('e');
    exited.status!.containerStatuses![0].state = { terminated: { exitCode: 3, reason: 'Error' } };
    expect(serviceState(deployment(1), [exited])).toEqual({ actualState: 'failed', reason: 'Error: exited with code 3' });
    expect(
      serviceState(deployment(1), [{ metadata: { name: 'f' }, status: { phase: 'Failed', reason: 'Evicted', message: 'low on memory' } }]),
    ).toEqual({
      actualState: 'failed',
      reason: 'Evicted: low on memory',
    });
    expect(
      serviceState(
        deployment(1, [
          {
            type: 'ReplicaFailure',
            status: 'True',
            reason: 'FailedCreate',
            message: 'pods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0',
          },
        ]),
        [],
      ),
    ).toEqual({
      actualState: 'failed',
      reason: 'FailedCreate: pods "p" is forbidden: exceeded quota: q, requested: pods=1, used: pods=0, limited: pods=0',
    });
  });

  test('pods on their way out do not count; a long reason is cut', () => {
    const leaving = waiting('CrashLoopBackOff');
    leaving.metadata!.deletionTimestamp = new Date();
    expect(serviceState(deployment(1), [ready('a'), leaving])).toEqual({ actualState: 'running' });
    const long = serviceState(deployment(1), [waiting('ErrImagePull', 'x'.repeat(1000))]);
    expect(long.reason).toHaveLength(300);
    expect(long.reason!.endsWith('…')).toBe(true);
  });
});

describe("the cluster's failures", () => {
  const action = { server: 'https://10.0.0.1:6443', namespace: 'apps', verb: 'delete', resource: 'deployments.apps', timeoutMs: 30_000 };
  const answer = (code: number, message: string) =>
    new ApiException(code, 'HTTP', JSON.stringify({ kind: 'Status', status: 'Failure', message, code }), {});
  const outcome = (error: unknown) => {
    const translated = clusterError(error, action);
    return { status: translated.httpStatus, message: translated.message, fields: translated.fields };
  };

  test('RBAC, credentials, quotas, invalid objects, failures and silence each answer their status', () => {
    expect(outcome(answer(403, 'deployments.apps "x" is forbidden: User "u" cannot delete resource "deployments"'))).toEqual({
      status: 502,
      message:
        'The Kubernetes cluster at https://10.0.0.1:6443 forbids the agent to delete deployments.apps in namespace apps (RBAC): deployments.apps "x" is forbidden: User "u" cannot delete resource "deployments"',
      fields: [],
    });
    expect(outcome(answer(403, 'services "s" is forbidden: exceeded quota: q, requested: services=1'))).toEqual({
      status: 422,
      message: `The namespace's quota refused to delete deployments.apps in namespace apps: services "s" is forbidden: exceeded quota: q, requested: services=1`,
      fields: ['template'],
    });
    expect(outcome(answer(401, 'Unauthorized'))).toEqual({
      status: 502,
      message:
        "The Kubernetes cluster at https://10.0.0.1:6443 refused the agent's credentials (HTTP 401) to delete deployments.apps in namespace apps.",
      fields: [],
    });
    expect(outcome(answer(422, 'Deployment.apps "x" is invalid'))).toMatchObject({ status: 422, fields: ['template'] });
    expect(outcome(answer(504, 'Timeout: request did not complete'))).toMatchObject({ status: 504 });
    expect(outcome(answer(500, 'etcdserver: leader changed'))).toEqual({
      status: 502,
      message:
        'The Kubernetes cluster at https://10.0.0.1:6443 failed to delete deployments.apps in namespace apps (HTTP 500): etcdserver: leader changed',
      fields: [],
    });
    expect(outcome(Object.assign(new Error('connect ECONNREFUSED'), { code: 'ECONNREFUSED' }))).toEqual({
      status: 502,
      message:
        'The Kubernetes cluster at https://10.0.0.1:6443 could not be reached to delete deployments.apps in namespace apps (ECONNREFUSED).',
      fields: [],
    });
    expect(outcome(Object.assign(new Error('The operation was aborted.'), { name: 'AbortError', type: 'aborted' }))).toEqual({
      status: 504,
      message:
        'The Kubernetes cluster at https://10.0.0.1:6443 did not answer within 30000 ms (delete deployments.apps in namespace apps).',
      fields: [],
    });
  });

  test("one Deployment the cluster fails to read is `error` with the cluster's words; a cluster that refuses or is down fails the request", () => {
    const failed = Object.assign(new UpstreamError('failed'), { cause: answer(500, 'etcdserver: request timed out') });
    expect(readFailure(failed)).toEqual({ actualState: 'error', reason: 'HTTP 500: etcdserver: request timed out' });
    expect(readFailure(Object.assign(new UpstreamError('forbidden'), { cause: answer(403, 'forbidden') }))).toBeUndefined();
    expect(readFailure(Object.assign(new UpstreamError('slow'), { cause: answer(504, 'timeout') }))).toBeUndefined();
    expect(readFailure(new UpstreamError('could not be reached'))).toBeUndefined();
  });
});
