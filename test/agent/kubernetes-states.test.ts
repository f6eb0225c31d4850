import { expect } from '@jest/globals';
import type { V1Deployment, V1Pod } from '@kubernetes/client-node';
import { serviceState } from '../../src/agent/adapters/kubernetes/states';

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
