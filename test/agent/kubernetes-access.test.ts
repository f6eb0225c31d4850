import { expect } from '@jest/globals';
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { parse, stringify } from 'yaml';
import { describeKubernetes, startKubernetes, waitFor, type KubernetesCluster } from '../helpers/kubernetes';
import { TEST_IMAGE } from '../helpers/docker';
import { registryAvailable, startRegistry } from '../helpers/registry';
import { agentRequest } from './agent-harness';
import {
  MANIFESTS,
  allRunning,
  isReady,
  manifestRole,
  objectsOf,
  podsOf,
  serviceAccountKubeconfig,
  startKubernetesAgent,
  tagTestImage,
  waitForServices,
} from './kubernetes-agent';

interface DeploymentBody {
  id: number;
  name: string | null;
  service_ids: string[];
}

interface PodSpecJson {
  spec: { template: { spec: { imagePullSecrets?: { name: string }[] } } };
}

interface Kubeconfig {
  clusters: { cluster: { server: string } }[];
}

/**
 * How the kubernetes adapter meets a cluster that refuses or fails: the agent's own manifests
 * (its Role is enough for a whole deployment's life, and one verb less is a 502 naming it), an
 * API server that is down, and one that goes away in the middle of a rollout.
 */
describeKubernetes('the kubernetes adapter and the access it has', () => {
  let cluster: KubernetesCluster;
  let namespace: string;
  const server = () => (parse(readFileSync(cluster.kubeconfigPath, 'utf8')) as Kubeconfig).clusters[0].cluster.server;

  beforeAll(async () => {
    cluster = await startKubernetes();
    namespace = await cluster.createNamespace('access');
  }, 120_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  const template = {
    name: 'access',
    images: [{ name: 'web', source: TEST_IMAGE, command: 'sleep 3600', expose: [80], volumes: [{ container_path: '/d' }] }],
  };

  test('the manifests of deploy/kubernetes/agent pass a server-side dry run in any namespace', async () => {
    // A kustomization of the user's own, as the README shows: the namespace is the test's.
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-manifests-'));
    try {
      writeFileSync(path.join(dir, 'kustomization.yaml'), stringify({ namespace, bases: [path.relative(dir, MANIFESTS)] }));
      const rendered = await cluster.kubectl(['kustomize', dir]);
      const binding = rendered
        .split('\n---\n')
        .map((doc) => parse(doc) as { kind: string; subjects?: { namespace: string }[] })
        .find((doc) => doc.kind === 'RoleBinding');
      expect(binding?.subjects).toEqual([{ kind: 'ServiceAccount', name: 'platform-agent', namespace }]);
      const out = await cluster.kubectl(['apply', '-k', dir, '--dry-run=server']);
      expect(out.trim().split('\n').sort()).toEqual([
        'deployment.apps/platform-agent created (server dry run)',
        'persistentvolumeclaim/platform-agent-data created (server dry run)',
        'role.rbac.authorization.k8s.io/platform-agent created (server dry run)',
        'rolebinding.rbac.authorization.k8s.io/platform-agent created (server dry run)',
        'service/platform-agent created (server dry run)',
        'serviceaccount/platform-agent created (server dry run)',
      ]);
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });

  test("with the manifests' Role a deployment lives its whole life: deploy, states, redeploy, delete", async () => {
    const kubeconfig = await serviceAccountKubeconfig(cluster, namespace, 'agent-role', manifestRole(namespace));
    const agent = await startKubernetesAgent(cluster, namespace, { AGENT_KUBECONFIG: kubeconfig });
    try {
      expect((await agentRequest(agent, 'GET', '/metadata')).status).toBe(200);
      const created = await agentRequest<DeploymentBody>(agent, 'POST', '/deployments', { body: { template } });
      expect(created.status).toBe(200);
      await waitForServices(agent, created.body.id, allRunning);
      expect((await agentRequest(agent, 'POST', `/deployments/${created.body.id}/redeploy`)).status).toBe(200);
      expect((await agentRequest(agent, 'DELETE', `/deployments/${created.body.id}`)).status).toBe(204);
    } finally {
      await agent.close();
      rmSync(path.dirname(kubeconfig), { recursive: true, force: true });
    }
  }, 240_000);

  test('a Role without `delete`: the delete is a 502 naming the cluster, the verb and the resource; the deployment stays', async () => {
    const kubeconfig = await serviceAccountKubeconfig(cluster, namespace, 'no-delete', manifestRole(namespace, 'delete'));
    const agent = await startKubernetesAgent(cluster, namespace, { AGENT_KUBECONFIG: kubeconfig });
    try {
      const created = await agentRequest<DeploymentBody>(agent, 'POST', '/deployments', { body: { template } });
      expect(created.status).toBe(200);
      const [id] = created.body.service_ids;
      await waitForServices(agent, created.body.id, allRunning);
      const refused = await agentRequest(agent, 'DELETE', `/deployments/${created.body.id}`);
      expect(refused).toMatchObject({ status: 502 });
      expect(refused.body).toEqual({
        code: 502,
        message: `The Kubernetes cluster at ${server()} forbids the agent to delete deployments.apps in namespace ${namespace} (RBAC): deployments.apps "${id}" is forbidden: User "system:serviceaccount:${namespace}:no-delete" cannot delete resource "deployments" in API group "apps" in the namespace "${namespace}"`,
        fields: '',
      });
      expect(await waitForServices(agent, created.body.id, allRunning)).toEqual([{ id, actualState: 'running' }]);
      expect((await agentRequest(agent, 'GET', '/deployments')).body).toEqual([expect.objectContaining({ id: created.body.id })]);
      // What is left goes with the test's namespace.
    } finally {
      await agent.close();
      rmSync(path.dirname(kubeconfig), { recursive: true, force: true });
    }
  }, 240_000);

  const testRegistry = registryAvailable() ? test : test.skip;
  testRegistry(
    "a private registry: the operator's pull secret lets the nodes pull; without it the pull is refused",
    async () => {
      const registry = await startRegistry({ auth: 'basic' });
      const ref = `${registry.host}/k8s-private/app:v1`;
      const { username, password } = registry.credentials!;
      await cluster.apply(namespace, [
        {
          apiVersion: 'v1',
          kind: 'Secret',
          metadata: { name: 'registry-login' },
          type: 'kubernetes.io/dockerconfigjson',
          data: {
            '.dockerconfigjson': Buffer.from(
              JSON.stringify({
                auths: { [registry.host]: { username, password, auth: Buffer.from(`${username}:${password}`).toString('base64') } },
              }),
            ).toString('base64'),
          },
        },
      ]);
      const digest = await registry.push('k8s-private/app', 'v1');
      const body = { template: { name: 'private', images: [{ name: 'app', source: ref }] } };
      const without = await startKubernetesAgent(cluster, namespace, { AGENT_KUBERNETES_IMAGE_PULL_POLICY: 'Always' });
      const withSecret = await startKubernetesAgent(cluster, namespace, {
        AGENT_KUBERNETES_IMAGE_PULL_POLICY: 'Always',
        AGENT_KUBERNETES_IMAGE_PULL_SECRETS: 'registry-login',
      });
      try {
        const refused = await agentRequest<DeploymentBody>(without, 'POST', '/deployments', { body });
        expect(refused.status).toBe(200);
        const [service] = await waitForServices(without, refused.body.id, (s) =>
          /^(ErrImagePull|ImagePullBackOff)/.test(s[0].reason ?? ''),
        );
        expect(service).toEqual({
          id: refused.body.service_ids[0],
          actualState: 'failed',
          reason: expect.stringMatching(/^(ErrImagePull|ImagePullBackOff): /),
        });
        expect((await agentRequest(without, 'DELETE', `/deployments/${refused.body.id}`)).status).toBe(204);

        const pulled = await agentRequest<DeploymentBody>(withSecret, 'POST', '/deployments', { body });
        expect(pulled.status).toBe(200);
        const [id] = pulled.body.service_ids;
        expect((await cluster.get<PodSpecJson>(namespace, 'deployment', id)).spec.template.spec.imagePullSecrets).toEqual([
          { name: 'registry-login' },
        ]);
        // The registry's image has no shell to run: pulled, it cannot start; what counts is the pull.
        const [pod] = await podsOf(cluster, namespace, id);
        const event = await waitFor(
          'the pull',
          async () => {
            const events = await cluster.get<{ items: { reason: string; message: string }[] }>(namespace, 'events', undefined);
            return events.items.find((e) => e.reason === 'Pulled' && e.message.includes(ref));
          },
          120_000,
        );
        expect(event.message).toMatch(new RegExp(`^Successfully pulled image "${ref.replace(/[.:/]/g, '\\$&')}"`));
        expect(pod.metadata.name).toMatch(new RegExp(`^${id}-`));
        const inspected = spawnSync('docker', ['image', 'inspect', '--format', '{{json .RepoDigests}}', ref], { encoding: 'utf8' });
        expect(JSON.parse(inspected.stdout) as string[]).toEqual([`${registry.host}/k8s-private/app@${digest}`]);
        expect((await agentRequest(withSecret, 'DELETE', `/deployments/${pulled.body.id}`)).status).toBe(204);
      } finally {
        await without.close();
        await withSecret.close();
        await registry.stop();
        spawnSync('docker', ['image', 'rm', ref], { encoding: 'utf8' });
      }
    },
    240_000,
  );

  testRegistry(
    "a private registry: the agent's own login (AGENT_DOCKER_CONFIG) becomes the deployment's pull secret, under the manifests' Role, and goes with it",
    async () => {
      const registry = await startRegistry({ auth: 'basic' });
      const ref = `${registry.host}/k8s-login/app:v1`;
      const { username, password } = registry.credentials!;
      const dir = mkdtempSync(path.join(tmpdir(), 'k8s-docker-config-'));
      const dockerConfig = path.join(dir, 'config.json');
      writeFileSync(
        dockerConfig,
        JSON.stringify({
          auths: { [`https://${registry.host}/v2/`]: { auth: Buffer.from(`${username}:${password}`).toString('base64') } },
        }),
      );
      // The test image, so the deployment runs and can be redeployed; pushed with a client config of its own, then removed.
      const pusher = { ...process.env, DOCKER_CONFIG: path.join(dir, 'pusher') };
      for (const args of [
        ['tag', TEST_IMAGE, ref],
        ['login', '--username', username, '--password-stdin', registry.host],
        ['push', ref],
        ['image', 'rm', ref],
      ]) {
        const run = spawnSync('docker', args, { encoding: 'utf8', env: pusher, input: password, timeout: 120_000 });
        expect({ args, status: run.status, stderr: run.status === 0 ? '' : run.stderr }).toEqual({ args, status: 0, stderr: '' });
      }
      const kubeconfig = await serviceAccountKubeconfig(cluster, namespace, 'agent-logins', manifestRole(namespace));
      const agent = await startKubernetesAgent(cluster, namespace, {
        AGENT_KUBECONFIG: kubeconfig,
        AGENT_KUBERNETES_IMAGE_PULL_POLICY: 'IfNotPresent',
        AGENT_DOCKER_CONFIG: dockerConfig,
      });
      const body = {
        template: {
          name: 'login',
          images: [
            { name: 'app', source: ref, command: 'sleep 3600' },
            { name: 'local', source: TEST_IMAGE, command: 'sleep 3600' },
          ],
        },
      };
      try {
        const created = await agentRequest<DeploymentBody>(agent, 'POST', '/deployments', { body });
        expect(created.status).toBe(200);
        const [appId, localId] = created.body.service_ids;
        const secretName = `${appId.replace(/-app$/, '-registry')}.pull`;
        for (const id of [appId, localId]) {
          expect((await cluster.get<PodSpecJson>(namespace, 'deployment', id)).spec.template.spec.imagePullSecrets).toEqual([
            { name: secretName },
          ]);
        }
        const secret = await cluster.get<{ type: string; data: Record<string, string>; metadata: { labels: Record<string, string> } }>(
          namespace,
          'secret',
          secretName,
        );
        expect(secret.type).toBe('kubernetes.io/dockerconfigjson');
        expect(JSON.parse(Buffer.from(secret.data['.dockerconfigjson'], 'base64').toString('utf8'))).toEqual({
          auths: { [registry.host]: { username, password, auth: Buffer.from(`${username}:${password}`).toString('base64') } },
        });
        expect(secret.metadata.labels).toEqual({
          'app.kubernetes.io/managed-by': 'platform-agent',
          'platform.agent/deployment': expect.any(String),
          'platform.agent/key': expect.any(String),
        });
        // The node does not have it (removed after the push): pulled with the login, which the registry requires.
        await waitForServices(agent, created.body.id, allRunning);

        // A redeploy puts the logins again (the Secret is there: replaced), under the same Role.
        const redeployed = await agentRequest<DeploymentBody>(agent, 'POST', `/deployments/${created.body.id}/redeploy`);
        expect(redeployed.status).toBe(200);
        await waitForServices(agent, created.body.id, allRunning);
        expect((await cluster.get<PodSpecJson>(namespace, 'deployment', appId)).spec.template.spec.imagePullSecrets).toEqual([
          { name: secretName },
        ]);

        const deleted = await agentRequest(agent, 'DELETE', `/deployments/${created.body.id}`);
        expect(deleted.status).toBe(204);
        await expect(cluster.get(namespace, 'secret', secretName)).rejects.toThrow(/NotFound/);
      } finally {
        await agent.close();
        await registry.stop();
        rmSync(dir, { recursive: true, force: true });
        rmSync(path.dirname(kubeconfig), { recursive: true, force: true });
        spawnSync('docker', ['image', 'rm', ref], { encoding: 'utf8' });
      }
    },
    240_000,
  );

  test('an API server that does not answer: 502 naming the cluster, the verb and the resource; nothing is kept', async () => {
    const closed = await listenAndClose();
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-down-'));
    const kubeconfig = path.join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, readFileSync(cluster.kubeconfigPath, 'utf8').replace(server(), `https://127.0.0.1:${closed}`), {
      mode: 0o600,
    });
    const agent = await startKubernetesAgent(cluster, namespace, { AGENT_KUBECONFIG: kubeconfig });
    try {
      const metadata = await agentRequest(agent, 'GET', '/metadata');
      expect(metadata).toMatchObject({ status: 502 });
      expect(metadata.body).toEqual({
        code: 502,
        message: `The Kubernetes cluster at https://127.0.0.1:${closed} could not be reached to get the version (/version) in namespace ${namespace} (ECONNREFUSED).`,
        fields: '',
      });
      const created = await agentRequest(agent, 'POST', '/deployments', { body: { template } });
      expect(created).toMatchObject({ status: 502 });
      expect(created.body).toEqual({
        code: 502,
        message: `The Kubernetes cluster at https://127.0.0.1:${closed} could not be reached to create persistentvolumeclaims in namespace ${namespace} (ECONNREFUSED).`,
        fields: '',
      });
      expect((await agentRequest(agent, 'GET', '/deployments')).body).toEqual([]);
    } finally {
      await agent.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  test('the API server goes away during a rollout: 502, the previous pod keeps running, and the deployment is removed whole later', async () => {
    const proxy = await startProxy(new URL(server()));
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-proxy-'));
    const kubeconfig = path.join(dir, 'kubeconfig');
    writeFileSync(kubeconfig, readFileSync(cluster.kubeconfigPath, 'utf8').replace(server(), `https://127.0.0.1:${proxy.port}`), {
      mode: 0o600,
    });
    const agent = await startKubernetesAgent(cluster, namespace, { AGENT_KUBECONFIG: kubeconfig, ADAPTER_TIMEOUT_MS: '2000' });
    const image = tagTestImage('cut');
    try {
      const created = await agentRequest<DeploymentBody>(agent, 'POST', '/deployments', {
        body: { template: { name: 'cut', images: [{ name: 'app', source: image.ref, command: 'sleep 3600' }] } },
      });
      expect(created.status).toBe(200);
      const [id] = created.body.service_ids;
      await waitForServices(agent, created.body.id, allRunning);
      const [previous] = await podsOf(cluster, namespace, id);

      // New pods cannot start; once the rollout has begun, the agent loses the API server.
      image.untag();
      const redeploy = agentRequest(agent, 'POST', `/deployments/${created.body.id}/redeploy`);
      await waitFor('the new pod', async () => ((await podsOf(cluster, namespace, id)).length === 2 ? true : undefined));
      await proxy.cut();
      const res = await redeploy;
      expect(res).toMatchObject({ status: 502 });
      expect(res.body).toEqual({
        code: 502,
        message: expect.stringMatching(
          new RegExp(
            `^The Kubernetes cluster at https://127\\.0\\.0\\.1:${proxy.port} could not be reached to get deployments\\.apps in namespace ${namespace} \\(ECONNREFUSED\\)\\. Undoing it failed \\(.+\\); the previous pods keep running until the cluster can roll out\\.$`,
          ),
        ),
        fields: '',
      });
      // The previous pod never stopped: the new one is not ready, so nothing replaced it.
      const pods = await podsOf(cluster, namespace, id);
      expect(pods.find((pod) => pod.metadata.name === previous.metadata.name && isReady(pod))).toBeDefined();

      // Back again: the agent still has the deployment under its previous generation, and a
      // delete finds every object, though they carry the new generation's key.
      await proxy.restore();
      const deployment = previous.metadata.labels!['platform.agent/deployment'];
      expect((await agentRequest(agent, 'DELETE', `/deployments/${created.body.id}`)).status).toBe(204);
      expect(await objectsOf(cluster, namespace, deployment)).toEqual({
        deployments: [],
        replicasets: [],
        services: [],
        persistentvolumeclaims: [],
        pods: [],
      });
    } finally {
      image.untag();
      await agent.close();
      await proxy.close();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);
});

/** A port nothing listens on any more. */
async function listenAndClose(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as { port: number }).port;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/**
 * A TCP proxy to the API server on a port of its own: `cut` closes every connection and stops
 * listening (connections are refused, as from a server that is down), `restore` listens again.
 */
async function startProxy(target: URL): Promise<{ port: number; cut(): Promise<void>; restore(): Promise<void>; close(): Promise<void> }> {
  const sockets = new Set<Socket>();
  let server: Server | undefined;
  let port = 0;
  const listen = async () => {
    server = createServer((socket) => {
      const upstream = connect(Number(target.port), target.hostname);
      sockets.add(socket).add(upstream);
      const drop = () => {
        socket.destroy();
        upstream.destroy();
        sockets.delete(socket);
        sockets.delete(upstream);
      };
      socket.on('error', drop).on('close', drop);
      upstream.on('error', drop).on('close', drop);
      socket.pipe(upstream).pipe(socket);
    });
    await new Promise<void>((resolve) => server!.listen(port, '127.0.0.1', resolve));
    port = (server.address() as { port: number }).port;
  };
  const stop = async () => {
    const closing = server ? new Promise<void>((resolve) => server!.close(() => resolve())) : Promise.resolve();
    for (const socket of sockets) socket.destroy();
    sockets.clear();
    await closing;
    server = undefined;
  };
  await listen();
  return { port, cut: stop, restore: listen, close: stop };
}
