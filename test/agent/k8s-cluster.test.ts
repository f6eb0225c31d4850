import { expect } from '@jest/globals';
import { TEST_IMAGE } from '../helpers/docker';
import { describeKubernetes, startKubernetes, waitFor, type KubernetesCluster } from '../helpers/kubernetes';

interface PodList {
  items: { metadata: { name: string }; status: { phase?: string; podIP?: string } }[];
}

/**
 * The test cluster itself (.ci/k8s-up.sh), before any agent code uses it: a Deployment of the
 * local test image is scheduled, its pods run with the environment and command they were given,
 * their logs are read back through the kubelet, and deleting the Deployment removes its pods.
 */
describeKubernetes('Kubernetes test cluster', () => {
  let cluster: KubernetesCluster;
  let namespace: string;

  beforeAll(async () => {
    cluster = await startKubernetes();
    namespace = await cluster.createNamespace('smoke');
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  test('a Deployment of the test image runs, logs, and is deleted with its pods', async () => {
    await cluster.apply(namespace, [
      {
        apiVersion: 'apps/v1',
        kind: 'Deployment',
        metadata: { name: 'hello' },
        spec: {
          replicas: 2,
          selector: { matchLabels: { app: 'hello' } },
          template: {
            metadata: { labels: { app: 'hello' } },
            spec: {
              terminationGracePeriodSeconds: 1,
              containers: [
                {
                  name: 'main',
                  image: TEST_IMAGE,
                  // Nothing is ever pulled here: `latest` would default to Always and fail.
                  imagePullPolicy: 'Never',
                  env: [{ name: 'GREETING', value: 'hello from k8s' }],
                  command: ['sh', '-c', 'echo "$GREETING on $HOSTNAME"; exec sleep 3600'],
                },
              ],
            },
          },
        },
      },
    ]);

    await cluster.kubectl(['-n', namespace, 'rollout', 'status', 'deployment/hello', '--timeout=90s'], { timeoutMs: 100_000 });
    const pods = await cluster.get<PodList>(namespace, 'pods', undefined, 'app=hello');
    expect(pods.items).toHaveLength(2);
    for (const pod of pods.items) {
      expect(pod.status.phase).toBe('Running');
      // Pods are containers on the docker bridge (no CNI): they have its addresses.
      expect(pod.status.podIP).toMatch(/^\d+\.\d+\.\d+\.\d+$/);
      const logs = await waitFor(`logs of ${pod.metadata.name}`, async () => {
        const out = await cluster.kubectl(['-n', namespace, 'logs', pod.metadata.name]);
        return out.trim() ? out : undefined;
      });
      expect(logs.trim()).toBe(`hello from k8s on ${pod.metadata.name}`);
    }

    await cluster.kubectl(['-n', namespace, 'delete', 'deployment', 'hello', '--wait=true', '--timeout=60s'], { timeoutMs: 70_000 });
    await waitFor(
      'the Deployment pods gone',
      async () => ((await cluster.get<PodList>(namespace, 'pods', undefined, 'app=hello')).items.length === 0 ? true : undefined),
      60_000,
    );
  }, 180_000);
});
