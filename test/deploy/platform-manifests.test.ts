import { expect } from '@jest/globals';
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { parseConfig } from '../../src/config';
import { describeKubernetes, startKubernetes, type KubernetesCluster } from '../helpers/kubernetes';

const DIR = path.resolve(__dirname, '../../deploy/kubernetes/platform');

interface Manifest {
  apiVersion: string;
  kind: string;
  metadata: { name: string };
  [key: string]: unknown;
}

function manifests(): { file: string; objects: Manifest[] }[] {
  return readdirSync(DIR)
    .filter((file) => file.endsWith('.yaml') && file !== 'kustomization.yaml')
    .sort()
    .map((file) => ({ file, objects: parseAllDocuments(readFileSync(path.join(DIR, file), 'utf8')).map((d) => d.toJS() as Manifest) }));
}

interface Deployment {
  spec: {
    replicas: number;
    selector: { matchLabels: Record<string, string> };
    strategy: { rollingUpdate: { maxUnavailable: number } };
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        containers: {
          readinessProbe: { httpGet: { path: string; port: string } };
          livenessProbe: { httpGet: { path: string; port: string } };
          envFrom: ({ secretRef?: { name: string } } & { configMapRef?: { name: string } })[];
          env: { name: string; valueFrom?: { fieldRef?: { fieldPath: string } } }[];
          ports: { name: string; containerPort: number }[];
        }[];
      };
    };
  };
}

describe('the Kubernetes manifests of the platform itself (deploy/kubernetes/platform)', () => {
  test('the kustomization lists every manifest', () => {
    const kustomization = parseAllDocuments(readFileSync(path.join(DIR, 'kustomization.yaml'), 'utf8'))[0].toJS() as {
      resources: string[];
    };
    expect([...kustomization.resources].sort()).toEqual(manifests().map((m) => m.file));
  });

  test('the ConfigMap and the Secret are a configuration the service accepts; the database comes from the Secret', () => {
    const all = manifests().flatMap((m) => m.objects);
    const data = (all.find((o) => o.kind === 'ConfigMap') as unknown as { data: Record<string, string> }).data;
    const secret = (all.find((o) => o.kind === 'Secret') as unknown as { stringData: Record<string, string> }).stringData;
    expect(Object.keys(secret).sort()).toEqual(['ADMIN_TOKEN', 'DATABASE_URL', 'SECRET_KEY']);
    expect(Object.keys(data)).not.toContain('DATABASE_URL');
    // The pod's own address, as the Deployment gives it to METRICS_HOST.
    const config = parseConfig({ ...data, ...secret, METRICS_HOST: '10.244.1.7' });
    expect({ host: config.host, port: config.port, metrics: config.metrics, database: config.databaseUrl }).toEqual({
      host: '0.0.0.0',
      port: 8080,
      metrics: { onMainPort: false, port: 9464, host: '10.244.1.7' },
      database: secret.DATABASE_URL,
    });
  });
});

/**
 * A server-side dry run against the test cluster (.ci/k8s-up.sh): the apiserver validates every
 * object as it would store it (schemas, defaults, admission) without creating anything.
 */
describeKubernetes('the platform manifests, dry-run on a real apiserver', () => {
  let cluster: KubernetesCluster;
  let namespace: string;

  beforeAll(async () => {
    cluster = await startKubernetes();
    namespace = await cluster.createNamespace('platform-manifests');
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  });

  test('every object is accepted: two replicas, probes on /readyz and /healthz, a disruption budget, the Secret', async () => {
    const versions = (await cluster.kubectl(['api-versions'])).split('\n');
    const accepted: Manifest[] = [];
    for (const { objects } of manifests()) {
      for (const object of objects) {
        // The test cluster is Kubernetes 1.20, which has PodDisruptionBudget only as
        // policy/v1beta1 (policy/v1 came in 1.21, and 1.25 removed v1beta1); the two share the
        // fields used here, so the budget is checked under the version this apiserver serves.
        const sent =
          object.apiVersion === 'policy/v1' && !versions.includes('policy/v1') ? { ...object, apiVersion: 'policy/v1beta1' } : object;
        const out = await cluster.kubectl(['-n', namespace, 'apply', '--dry-run=server', '-o', 'json', '-f', '-'], {
          input: JSON.stringify(sent),
        });
        accepted.push(JSON.parse(out) as Manifest);
      }
    }
    expect(accepted.map((o) => `${o.kind}/${o.metadata.name}`).sort()).toEqual([
      'ConfigMap/platform',
      'Deployment/platform',
      'PodDisruptionBudget/platform',
      'Secret/platform',
      'Service/platform',
    ]);
    // Nothing was created.
    expect(
      JSON.parse(await cluster.kubectl(['-n', namespace, 'get', 'deployments,services,secrets,configmaps,pdb', '-o', 'json'])),
    ).toEqual(
      expect.objectContaining({
        items: expect.not.arrayContaining([expect.objectContaining({ metadata: expect.objectContaining({ name: 'platform' }) })]),
      }),
    );

    const deployment = accepted.find((o) => o.kind === 'Deployment') as unknown as Deployment;
    const [container] = deployment.spec.template.spec.containers;
    expect({
      replicas: deployment.spec.replicas,
      maxUnavailable: deployment.spec.strategy.rollingUpdate.maxUnavailable,
      readiness: container.readinessProbe.httpGet,
      liveness: container.livenessProbe.httpGet,
      from: container.envFrom,
      metricsHost: container.env.find((e) => e.name === 'METRICS_HOST')?.valueFrom?.fieldRef?.fieldPath,
      ports: container.ports.map((p) => [p.name, p.containerPort]),
    }).toEqual({
      replicas: 2,
      maxUnavailable: 0,
      readiness: expect.objectContaining({ path: '/readyz', port: 'http' }),
      liveness: expect.objectContaining({ path: '/healthz', port: 'http' }),
      from: [{ configMapRef: { name: 'platform' } }, { secretRef: { name: 'platform' } }],
      metricsHost: 'status.podIP',
      ports: [
        ['http', 8080],
        ['metrics', 9464],
      ],
    });
    const podLabels = deployment.spec.template.metadata.labels;
    const budget = accepted.find((o) => o.kind === 'PodDisruptionBudget') as unknown as {
      spec: { minAvailable: number; selector: { matchLabels: Record<string, string> } };
    };
    const service = accepted.find((o) => o.kind === 'Service') as unknown as { spec: { selector: Record<string, string> } };
    expect({
      minAvailable: budget.spec.minAvailable,
      budgetSelects: budget.spec.selector.matchLabels,
      serviceSelects: service.spec.selector,
    }).toEqual({
      minAvailable: 1,
      budgetSelects: podLabels,
      serviceSelects: podLabels,
    });
  }, 120_000);
});
