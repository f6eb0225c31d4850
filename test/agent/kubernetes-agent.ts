import { randomBytes } from 'node:crypto';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse } from 'yaml';
import { TEST_IMAGE } from '../helpers/docker';
import { waitFor, type KubernetesCluster } from '../helpers/kubernetes';
import { agentRequest, startAgent, type RunningAgent } from './agent-harness';

/**
 * What the kubernetes adapter's tests share: an agent (the real one, in-process, through
 * interface B) on the test cluster, reads of the objects it made, and polls of its states.
 */
export const ROOT = path.resolve(__dirname, '../..');
export const MANIFESTS = path.join(ROOT, 'deploy/kubernetes/agent');

export interface ServiceStatusBody {
  id: string;
  actualState: string;
  reason?: string;
}

export interface DeploymentStatusBody {
  id: number;
  name: string | null;
  redeployable: boolean;
  status: { services: ServiceStatusBody[] };
}

/** The agent with AGENT_ADAPTER=kubernetes in `namespace`; images are never pulled (IfNotPresent). */
export function startKubernetesAgent(
  cluster: KubernetesCluster,
  namespace: string,
  env: Record<string, string> = {},
): Promise<RunningAgent> {
  return startAgent({
    env: {
      AGENT_ADAPTER: 'kubernetes',
      AGENT_KUBECONFIG: cluster.kubeconfigPath,
      AGENT_KUBERNETES_NAMESPACE: namespace,
      AGENT_KUBERNETES_IMAGE_PULL_POLICY: 'IfNotPresent',
      AGENT_KUBERNETES_ROLLOUT_TIMEOUT_SECONDS: '20',
      AGENT_STOP_TIMEOUT_SECONDS: '1',
      ...env,
    },
  });
}

/** Polls the deployment until `done` holds for its services (or 120 s pass); answers the last read. */
export async function waitForServices(
  agent: RunningAgent,
  id: number,
  done: (services: ServiceStatusBody[]) => boolean,
  what = 'the expected states',
): Promise<ServiceStatusBody[]> {
  const until = Date.now() + 120_000;
  for (;;) {
    const res = await agentRequest<DeploymentStatusBody>(agent, 'GET', `/deployments/${id}`);
    if (res.status !== 200) throw new Error(`GET /deployments/${id}: ${res.status} ${JSON.stringify(res.body)}`);
    if (done(res.body.status.services)) return res.body.status.services;
    if (Date.now() > until) throw new Error(`deployment ${id}: not ${what} within 120 s (last: ${JSON.stringify(res.body)})`);
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

export const allRunning = (services: ServiceStatusBody[]) => services.length > 0 && services.every((s) => s.actualState === 'running');

interface Meta {
  name: string;
  labels?: Record<string, string>;
  annotations?: Record<string, string>;
  deletionTimestamp?: string;
}
export interface PodJson {
  metadata: Meta;
  spec: { containers: { name: string; args?: string[] }[] };
  status: { phase?: string; conditions?: { type: string; status: string }[] };
}
interface ListJson<T> {
  items: T[];
}

/** The names of everything carrying `platform.agent/deployment=<deployment>`, by kind (pods still terminating included). */
export async function objectsOf(cluster: KubernetesCluster, namespace: string, deployment: string): Promise<Record<string, string[]>> {
  const selector = `platform.agent/deployment=${deployment}`;
  const found: Record<string, string[]> = {};
  for (const kind of ['deployments', 'replicasets', 'services', 'persistentvolumeclaims', 'pods']) {
    const list = await cluster.get<ListJson<{ metadata: Meta }>>(namespace, kind, undefined, selector);
    found[kind] = list.items.map((item) => item.metadata.name).sort();
  }
  return found;
}

/** The live (not terminating) pods of one service id (a Deployment), by its selector. */
export async function podsOf(cluster: KubernetesCluster, namespace: string, deploymentName: string): Promise<PodJson[]> {
  const deployment = await cluster.get<{ spec: { selector: { matchLabels: Record<string, string> } } }>(
    namespace,
    'deployment',
    deploymentName,
  );
  const selector = Object.entries(deployment.spec.selector.matchLabels)
    .map(([key, value]) => `${key}=${value}`)
    .join(',');
  const pods = await cluster.get<ListJson<PodJson>>(namespace, 'pods', undefined, selector);
  return pods.items.filter((pod) => !pod.metadata.deletionTimestamp);
}

export const isReady = (pod: PodJson) => pod.status.conditions?.some((c) => c.type === 'Ready' && c.status === 'True') ?? false;

/** The `platform.agent/deployment` label of a service id's Deployment: what all its objects carry. */
export async function deploymentLabel(cluster: KubernetesCluster, namespace: string, deploymentName: string): Promise<string> {
  const deployment = await cluster.get<{ metadata: Meta }>(namespace, 'deployment', deploymentName);
  return deployment.metadata.labels!['platform.agent/deployment'];
}

/**
 * A tag of the test image only this test uses (`platform-test/k8s-<name>-<random>:v1`): removing
 * it later makes new pods fail to start, while pods already running keep running.
 */
export function tagTestImage(name: string): { ref: string; untag(): void } {
  const ref = `platform-test/k8s-${name}-${randomBytes(3).toString('hex')}:v1`;
  const tag = spawnSync('docker', ['tag', TEST_IMAGE, ref], { encoding: 'utf8' });
  if (tag.status !== 0) throw new Error(`docker tag: ${tag.stderr}`);
  return {
    ref,
    untag() {
      // Only the tag: the image stays, as TEST_IMAGE.
      spawnSync('docker', ['image', 'rm', ref], { encoding: 'utf8' });
    },
  };
}

/** The manifests' Role, with `drop` removed from the verbs of each rule (the RBAC tests' Role lacking a verb). */
export function manifestRole(namespace: string, drop?: string): object {
  const role = parse(readFileSync(path.join(MANIFESTS, 'role.yaml'), 'utf8')) as {
    metadata: Meta & { namespace?: string };
    rules: { verbs: string[] }[];
  };
  role.metadata.namespace = namespace;
  if (drop) for (const rule of role.rules) rule.verbs = rule.verbs.filter((verb) => verb !== drop);
  return role;
}

/**
 * A kubeconfig for ServiceAccount `name` in `namespace`, bound to `role`, with the token the
 * cluster's token controller made for it (Kubernetes 1.20 still makes one per account).
 */
export async function serviceAccountKubeconfig(cluster: KubernetesCluster, namespace: string, name: string, role: object): Promise<string> {
  await cluster.apply(namespace, [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: { name } },
    { ...role, metadata: { ...(role as { metadata: object }).metadata, name } },
    {
      apiVersion: 'rbac.authorization.k8s.io/v1',
      kind: 'RoleBinding',
      metadata: { name },
      roleRef: { apiGroup: 'rbac.authorization.k8s.io', kind: 'Role', name },
      subjects: [{ kind: 'ServiceAccount', name, namespace }],
    },
  ]);
  const token = await serviceAccountToken(cluster, namespace, name);
  const admin = parse(readFileSync(cluster.kubeconfigPath, 'utf8')) as {
    clusters: { cluster: { server: string; 'certificate-authority-data': string } }[];
  };
  const dir = mkdtempSync(path.join(tmpdir(), 'k8s-sa-'));
  const file = path.join(dir, 'kubeconfig');
  writeFileSync(
    file,
    JSON.stringify({
      apiVersion: 'v1',
      kind: 'Config',
      clusters: [{ name: 'test', cluster: admin.clusters[0].cluster }],
      users: [{ name, user: { token: token.token } }],
      contexts: [{ name: 'test', context: { cluster: 'test', user: name, namespace } }],
      'current-context': 'test',
    }),
    { mode: 0o600 },
  );
  return file;
}

/** The token and CA of a ServiceAccount's token Secret, once the token controller made it. */
export async function serviceAccountToken(
  cluster: KubernetesCluster,
  namespace: string,
  name: string,
): Promise<{ token: string; ca: string }> {
  const secretName = await waitFor(`the token secret of ${name}`, async () => {
    const account = await cluster.get<{ secrets?: { name: string }[] }>(namespace, 'serviceaccount', name);
    return account.secrets?.[0]?.name;
  });
  const secret = await cluster.get<{ data: { token: string; 'ca.crt': string } }>(namespace, 'secret', secretName);
  return {
    token: Buffer.from(secret.data.token, 'base64').toString('utf8'),
    ca: Buffer.from(secret.data['ca.crt'], 'base64').toString('utf8'),
  };
}
