import { expect } from '@jest/globals';
import { execFileSync, spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';
import { freePort } from '../../src/net/free-port';
import { AgentClient } from '../../src/targets/agent-client';
import { objectsOf } from '../agent/kubernetes-agent';
import { ADMIN_TOKEN, startTestApp, type TestApp } from '../helpers/app';
import type { Named, TargetBody } from '../helpers/bodies';
import { launchChromium } from '../helpers/browser';
import { CHROMIUM } from '../helpers/chromium';
import { createTestDatabase, type TestDatabase } from '../helpers/db';
import { TEST_IMAGE } from '../helpers/docker';
import { makeGitRepo } from '../helpers/git';
import { describeKubernetes, startKubernetes, waitFor, type KubernetesCluster } from '../helpers/kubernetes';

const ROOT = path.resolve(__dirname, '../..');
/**
 * The agent compiled as `npm run build` compiles it (tsc, tsconfig.build.json), into a directory
 * of its own: rebuilding dist/ would pull it from under the console's tests running beside these.
 */
const BUILT = path.join(ROOT, 'test', '.artifacts', 'k8s-agent');
const MAIN = path.relative(ROOT, path.join(BUILT, 'src', 'agent', 'main.js'));
/** Made by .ci/node-image.sh from Debian packages and the npm registry's Node: never pulled. */
const BASE_IMAGE = process.env.PLATFORM_BASE_IMAGE ?? 'platform-base/node:24-bookworm';

interface RestDeployment {
  id: number;
  name: string | null;
  status: { services: { id: string; actualState: string }[] };
}

interface GraphQLTarget {
  deploymentTarget: {
    deployments: { databaseId: number; status: { services: { orchestratorId: string; actualState: string; reason: string | null }[] } }[];
  };
}

const TARGET_QUERY = `query ($id: Int!) {
  deploymentTarget(id: $id) { deployments { databaseId status { services { orchestratorId actualState reason } } } }
}`;

/**
 * End to end on the test cluster with the agent as users run it: compiled (as `npm run build`
 * does), as its own process (`node …/src/agent/main.js`, which loads the ESM-only Kubernetes
 * client with require), first beside the main service with a kubeconfig, then as a pod of the
 * cluster with the manifests' service account. The main service is driven through interface A and read
 * through GraphQL and the web console.
 */
describeKubernetes('a Kubernetes cluster as a deployment target', () => {
  let cluster: KubernetesCluster;
  let namespace: string;

  beforeAll(async () => {
    compileAgent();
    cluster = await startKubernetes();
    namespace = await cluster.createNamespace('e2e');
  }, 660_000);

  afterAll(async () => {
    await cluster?.stop();
  }, 60_000);

  describe('the built agent beside the main service, with a kubeconfig', () => {
    let db: TestDatabase;
    let agent: AgentProcess;
    let t: TestApp;
    let repo: string;

    beforeAll(async () => {
      db = await createTestDatabase('agent_k8s_e2e');
      agent = await spawnAgent({
        AGENT_ADAPTER: 'kubernetes',
        AGENT_KUBECONFIG: cluster.kubeconfigPath,
        AGENT_KUBERNETES_NAMESPACE: namespace,
        AGENT_KUBERNETES_IMAGE_PULL_POLICY: 'IfNotPresent',
        AGENT_STOP_TIMEOUT_SECONDS: '1',
        DATABASE_URL: db.url,
      });
      // The console as `npm run build` bundles it, beside the agent: dist/console is the console tests'.
      if (existsSync(CHROMIUM)) bundleConsole();
      t = await startTestApp(existsSync(CHROMIUM) ? { CONSOLE_DIR: path.join(BUILT, 'console') } : {});
      repo = makeGitRepo({
        'k8s-shop.pmx': stringify({
          name: 'k8s-shop',
          description: 'a web server and its database',
          type: 'Default',
          images: [
            {
              name: 'web',
              source: TEST_IMAGE,
              command: `sh -c 'echo "$GREETING"; exec sleep 3600'`,
              environment: [{ variable: 'GREETING', value: 'from the template' }],
              expose: [80],
              links: [{ service: 'db', alias: 'database' }],
            },
            { name: 'db', source: TEST_IMAGE, command: 'sleep 3600', expose: [5432] },
          ],
        }),
        'k8s-broken.pmx': stringify({
          name: 'k8s-broken',
          description: 'an image no node has',
          type: 'Default',
          images: [{ name: 'ghost', source: 'platform-test/not-on-any-node:1' }],
        }),
      });
      expect((await t.request('POST', '/template_repos', { body: { name: repo } })).status).toBe(200);
    }, 180_000);

    afterAll(async () => {
      await agent?.kill();
      await t?.close();
      await db?.drop();
      if (repo) rmSync(repo, { recursive: true, force: true });
    }, 60_000);

    async function restDeployment(targetId: number, id: number, done: (body: RestDeployment) => boolean): Promise<RestDeployment> {
      return waitFor(
        `deployment ${id} as REST answers it`,
        async () => {
          const res = await t.request<RestDeployment>('GET', `/deployment_targets/${targetId}/deployments/${id}`);
          return res.status === 200 && done(res.body) ? res.body : undefined;
        },
        120_000,
      );
    }

    test('add the target, deploy a template via REST, read its states (and the reason) via GraphQL and the console, redeploy, delete', async () => {
      const created = await t.request<TargetBody>('POST', '/deployment_targets', { body: { name: 'k8s', auth_blob: agent.token } });
      expect(created.status).toBe(200);
      const version = JSON.parse(await cluster.kubectl(['version', '-o', 'json'])) as { serverVersion: { gitVersion: string } };
      expect(created.body).toEqual({
        id: expect.any(Number),
        name: 'k8s',
        endpoint_url: agent.url,
        auth_blob: expect.any(String),
        metadata: {
          id: created.body.id,
          agent_version: expect.any(String),
          adapter_version: version.serverVersion.gitVersion,
          adapter_type: 'kubernetes',
          created_at: expect.any(String),
        },
      });
      const targetId = created.body.id;
      const templates = (await t.request<Named[]>('GET', '/templates')).body;
      const shop = templates.find((tpl) => tpl.name === 'k8s-shop')!;
      const broken = templates.find((tpl) => tpl.name === 'k8s-broken')!;

      const deployed = await t.request<RestDeployment>('POST', `/deployment_targets/${targetId}/deployments`, {
        body: {
          template_id: shop.id,
          override: { images: [{ name: 'web', environment: [{ variable: 'GREETING', value: 'hello k8s' }] }] },
        },
      });
      expect(deployed.status).toBe(200);
      const id = deployed.body.id;
      const running = await restDeployment(targetId, id, (body) => body.status.services.every((s) => s.actualState === 'running'));
      // Interface A's shape is the specification's: no reason member.
      expect(running).toEqual({
        id,
        name: 'k8s-shop',
        status: {
          services: [
            { id: expect.stringMatching(/^platform-d\d+-[0-9a-f]{6}-web$/), actualState: 'running' },
            { id: expect.stringMatching(/^platform-d\d+-[0-9a-f]{6}-db$/), actualState: 'running' },
          ],
        },
      });
      const [webId] = running.status.services.map((s) => s.id);
      const pods = await cluster.get<{ items: { metadata: { name: string } }[] }>(
        namespace,
        'pods',
        undefined,
        `platform.agent/service=web`,
      );
      expect((await cluster.kubectl(['-n', namespace, 'logs', pods.items[0].metadata.name])).trim()).toBe('hello k8s');

      const failing = await t.request<RestDeployment>('POST', `/deployment_targets/${targetId}/deployments`, {
        body: { template_id: broken.id },
      });
      expect(failing.status).toBe(200);
      const graph = await waitFor(
        'the broken deployment failed, with its reason, through GraphQL',
        async () => {
          const res = await t.graphql<GraphQLTarget>(TARGET_QUERY, { id: targetId });
          const services = res.body.data.deploymentTarget.deployments.find((d) => d.databaseId === failing.body.id)?.status.services;
          return services?.[0]?.reason?.startsWith('ImagePullBackOff') ? res.body.data : undefined;
        },
        120_000,
      );
      expect(graph.deploymentTarget.deployments).toEqual([
        {
          databaseId: id,
          status: {
            services: running.status.services.map((s) => ({ orchestratorId: s.id, actualState: 'running', reason: null })),
          },
        },
        {
          databaseId: failing.body.id,
          status: {
            services: [
              {
                orchestratorId: expect.stringMatching(/-ghost$/),
                actualState: 'failed',
                reason: 'ImagePullBackOff: Back-off pulling image "platform-test/not-on-any-node:1"',
              },
            ],
          },
        },
      ]);
      const restFailed = await t.request<RestDeployment>('GET', `/deployment_targets/${targetId}/deployments/${failing.body.id}`);
      expect(restFailed.body.status.services).toEqual([
        { id: expect.stringMatching(/-ghost$/), actualState: expect.stringMatching(/^failed$/) },
      ]);

      if (existsSync(CHROMIUM)) {
        await consoleShowsReason(t, 'k8s', /ImagePullBackOff: Back-off pulling image "platform-test\/not-on-any-node:1"/);
      } else if (process.env.REQUIRE_BROWSER === '1') {
        throw new Error(`${CHROMIUM} is missing: install the Debian package chromium`);
      }

      const redeployed = await t.request<RestDeployment>('POST', `/deployment_targets/${targetId}/deployments/${id}/redeploy`);
      expect(redeployed.status).toBe(200);
      // Rolled out in place: the same ids.
      expect(redeployed.body.status.services.map((s) => s.id)).toEqual(running.status.services.map((s) => s.id));

      const deployment = (await cluster.get<{ metadata: { labels: Record<string, string> } }>(namespace, 'deployment', webId)).metadata
        .labels['platform.agent/deployment'];
      expect((await t.request('DELETE', `/deployment_targets/${targetId}/deployments/${id}`)).status).toBe(204);
      expect((await t.request('DELETE', `/deployment_targets/${targetId}/deployments/${failing.body.id}`)).status).toBe(204);
      expect(await objectsOf(cluster, namespace, deployment)).toEqual({
        deployments: [],
        replicasets: [],
        services: [],
        persistentvolumeclaims: [],
        pods: [],
      });
      expect((await t.request('GET', `/deployment_targets/${targetId}/deployments`)).body).toEqual([]);
    }, 420_000);
  });

  test("in the cluster: the built agent as a pod, with the manifests' service account (loadFromCluster)", async () => {
    if (!hasImage(BASE_IMAGE)) {
      // The pod needs a local image with Node; CI makes it (.ci/node-image.sh).
      console.warn(`skipping the in-cluster run: ${BASE_IMAGE} is missing (bash .ci/node-image.sh makes it)`);
      return;
    }
    const db = await createTestDatabase('agent_k8s_pod');
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-agent-pod-'));
    try {
      // The ServiceAccount, Role and RoleBinding of deploy/kubernetes/agent, in the test's namespace.
      writeFileSync(
        path.join(dir, 'kustomization.yaml'),
        stringify({ namespace, bases: [path.relative(dir, path.join(ROOT, 'deploy/kubernetes/agent'))] }),
      );
      const rendered = (await cluster.kubectl(['kustomize', dir]))
        .split('\n---\n')
        .filter((doc) => /^kind: (ServiceAccount|Role|RoleBinding)$/m.test(doc));
      await cluster.apply(namespace, rendered.join('\n---\n'));
      // The pod's own token and CA at /var/run/secrets/kubernetes.io/serviceaccount, as in any
      // cluster. The code comes from this checkout (the image has only Node); the host's network
      // so that the agent reaches the API server on loopback (this cluster routes no Service IPs)
      // and the test reaches the agent.
      const port = await freePort();
      const server = new URL(
        (JSON.parse(await cluster.kubectl(['config', 'view', '--minify', '-o', 'json'])) as { clusters: { cluster: { server: string } }[] })
          .clusters[0].cluster.server,
      );
      await cluster.apply(namespace, [
        {
          apiVersion: 'v1',
          kind: 'Pod',
          metadata: { name: 'platform-agent' },
          spec: {
            serviceAccountName: 'platform-agent',
            hostNetwork: true,
            restartPolicy: 'Never',
            terminationGracePeriodSeconds: 5,
            containers: [
              {
                name: 'agent',
                image: BASE_IMAGE,
                imagePullPolicy: 'Never',
                workingDir: '/app',
                command: ['node', MAIN],
                env: [
                  { name: 'AGENT_ADAPTER', value: 'kubernetes' },
                  { name: 'AGENT_KUBERNETES_NAMESPACE', valueFrom: { fieldRef: { fieldPath: 'metadata.namespace' } } },
                  { name: 'AGENT_PORT', value: String(port) },
                  { name: 'AGENT_DATA_DIR', value: '/agent-data' },
                  { name: 'DATABASE_URL', value: db.url },
                  { name: 'AGENT_KUBERNETES_IMAGE_PULL_POLICY', value: 'IfNotPresent' },
                  { name: 'AGENT_STOP_TIMEOUT_SECONDS', value: '1' },
                  { name: 'KUBERNETES_SERVICE_HOST', value: server.hostname },
                  { name: 'KUBERNETES_SERVICE_PORT', value: server.port },
                ],
                volumeMounts: [
                  { name: 'app', mountPath: '/app', readOnly: true },
                  { name: 'data', mountPath: '/agent-data' },
                ],
              },
            ],
            volumes: [
              { name: 'app', hostPath: { path: ROOT, type: 'Directory' } },
              { name: 'data', emptyDir: {} },
            ],
          },
        },
      ]);
      const token = await waitFor(
        "the agent pod's token",
        async () => {
          const logs = await cluster.kubectl(['-n', namespace, 'logs', 'platform-agent']).catch(() => '');
          return /----- BEGIN AGENT TOKEN -----\n(\S+)\n----- END AGENT TOKEN -----/.exec(logs)?.[1];
        },
        120_000,
      );
      const client = new AgentClient({ deployTimeoutMs: 180_000 });
      const target = { id: 'pod', name: 'in-cluster', authBlob: token };
      try {
        expect((await client.metadata(target)).adapter.type).toBe('kubernetes');
        const created = await client.createDeployment(target, {
          template: { name: 'from-the-pod', images: [{ name: 'hello', source: TEST_IMAGE, command: 'sleep 3600', expose: [80] }] },
        });
        const [serviceId] = created.service_ids;
        const running = await waitFor(
          'the deployment running',
          async () => {
            const read = await client.getDeployment(target, created.id);
            return read.status.services.every((s) => s.actualState === 'running') ? read : undefined;
          },
          120_000,
        );
        expect(running).toEqual({
          id: created.id,
          name: 'from-the-pod',
          status: { services: [{ id: serviceId, actualState: 'running' }] },
        });
        // Made by the agent's service account, in the agent's namespace.
        const made = await cluster.get<{ metadata: { labels: Record<string, string> } }>(namespace, 'deployment', serviceId);
        expect(made.metadata.labels['app.kubernetes.io/managed-by']).toBe('platform-agent');
        await client.deleteDeployment(target, created.id);
        expect(await objectsOf(cluster, namespace, made.metadata.labels['platform.agent/deployment'])).toEqual({
          deployments: [],
          replicasets: [],
          services: [],
          persistentvolumeclaims: [],
          pods: [],
        });
      } finally {
        await client.close();
      }
      // The account may do what its Role says, and nothing else.
      expect(
        (
          await cluster.kubectl([
            'auth',
            'can-i',
            'create',
            'deployments',
            '-n',
            namespace,
            `--as=system:serviceaccount:${namespace}:platform-agent`,
          ])
        ).trim(),
      ).toBe('yes');
      await expect(
        cluster.kubectl(['auth', 'can-i', 'create', 'secrets', '-n', namespace, `--as=system:serviceaccount:${namespace}:platform-agent`]),
      ).rejects.toThrow(/exit 1/);
    } finally {
      await cluster.kubectl(['-n', namespace, 'delete', 'pod', 'platform-agent', '--ignore-not-found', '--wait=true', '--timeout=60s'], {
        timeoutMs: 70_000,
      });
      await db.drop();
      rmSync(dir, { recursive: true, force: true });
    }
  }, 420_000);
});

/** The console's target page shows the reason beside the failed state. */
async function consoleShowsReason(t: TestApp, targetName: string, reason: RegExp): Promise<void> {
  const browser = await launchChromium();
  try {
    const context = await browser.newContext({ viewport: { width: 1280, height: 860 } });
    const page = await context.newPage();
    await page.goto(t.url);
    await page.getByLabel('API token').fill(ADMIN_TOKEN);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.getByRole('navigation', { name: 'Sections' }).getByRole('link', { name: 'Targets' }).click();
    await page.getByRole('link', { name: targetName }).click();
    const row = page.locator('tr[data-deployment="k8s-broken"]');
    await row.getByText('failed', { exact: true }).waitFor({ timeout: 60_000 });
    await row.getByText(reason).waitFor({ timeout: 60_000 });
    await context.close();
  } finally {
    await browser.close();
  }
}

/** tsc with the build's settings, from the agent's entry point (and what it requires at run time: the chosen adapter, its migrations). */
function compileAgent(): void {
  rmSync(BUILT, { recursive: true, force: true });
  mkdirSync(BUILT, { recursive: true });
  const up = path.relative(BUILT, ROOT);
  writeFileSync(
    path.join(BUILT, 'tsconfig.json'),
    JSON.stringify({
      extends: path.join(up, 'tsconfig.build.json'),
      compilerOptions: { outDir: '.', rootDir: up, sourceMap: false },
      files: [path.join(up, 'src/agent/main.ts'), path.join(up, 'src/agent/adapters/kubernetes/kubernetes-adapter.ts')],
      // Required by folder, not imported: the migrations as the whole build compiles them.
      include: [path.join(up, 'src/agent/migrations/*.ts')],
    }),
  );
  const tsc = require.resolve('typescript/bin/tsc', { paths: [ROOT] });
  execFileSync(process.execPath, [tsc, '-p', path.join(BUILT, 'tsconfig.json')], { stdio: 'inherit', timeout: 600_000 });
}

function bundleConsole(): void {
  const vite = path.join(path.dirname(require.resolve('vite/package.json', { paths: [ROOT] })), 'bin', 'vite.js');
  const config = path.join(ROOT, 'src', 'console', 'vite.config.mts');
  execFileSync(
    process.execPath,
    [vite, 'build', '--logLevel', 'warn', '--config', config, '--outDir', path.join(BUILT, 'console'), '--emptyOutDir'],
    { cwd: ROOT, stdio: 'inherit', timeout: 600_000, env: { ...process.env, VITE_CONFIG_NATIVE_IGNORE_WARNING: 'true' } },
  );
}

function hasImage(ref: string): boolean {
  return spawnSync('docker', ['image', 'inspect', ref], { stdio: 'ignore', timeout: 15_000 }).status === 0;
}

interface AgentProcess {
  child: ChildProcess;
  token: string;
  url: string;
  kill(): Promise<void>;
}

/** The compiled agent (what `npm run agent` runs) on a free port, once it printed its token. */
async function spawnAgent(env: Record<string, string>): Promise<AgentProcess> {
  const port = await freePort();
  const dataDir = mkdtempSync(path.join(tmpdir(), 'agent-k8s-e2e-'));
  const clean = Object.fromEntries(
    Object.entries(process.env).filter(([key]) => !/^(AGENT_|ADAPTER_|DATABASE_URL$|KUBECONFIG$|LOG_LEVEL$)/.test(key)),
  );
  const child = spawn(process.execPath, [MAIN], {
    cwd: ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...clean, AGENT_PORT: String(port), AGENT_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
  });
  let output = '';
  child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString('utf8')));
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  const token = await waitFor(
    'the agent process printing its token',
    () => {
      if (child.exitCode !== null) throw new Error(`the agent exited (${child.exitCode}):\n${output}`);
      return Promise.resolve(/----- BEGIN AGENT TOKEN -----\n(\S+)\n----- END AGENT TOKEN -----/.exec(output)?.[1]);
    },
    60_000,
  ).catch((error: Error) => {
    child.kill('SIGKILL');
    throw new Error(`${error.message}\n${output}`);
  });
  // require(esm) of the client is no longer experimental on the Node versions the service supports.
  expect(output).not.toMatch(/ExperimentalWarning/);
  return {
    child,
    token,
    url: `https://127.0.0.1:${port}`,
    async kill() {
      if (child.exitCode === null) child.kill('SIGTERM');
      await exited;
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
