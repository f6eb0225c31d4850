import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';

/**
 * The one-node Kubernetes 1.20 cluster of .ci/k8s-up.sh (etcd, apiserver, controller-manager,
 * scheduler, and a kubelet whose pods are containers on the test Docker engine). What works there
 * and what does not is in that script's header; in short: pods, logs, exec, Deployments, PVCs
 * (default StorageClass, hostPath) and hostPort do, Service ClusterIPs are allocated but nothing
 * routes them, there is no cluster DNS, and images are never pulled (use imagePullPolicy Never).
 *
 * The cluster is shared by every test file, so each one works in namespaces of its own
 * ({@link KubernetesCluster.createNamespace}) and removes only those.
 */
const ROOT = path.resolve(__dirname, '../..');
export const K8S_DIR = process.env.PLATFORM_K8S_DIR ?? '/tmp/platform-k8s';
export const KUBECONFIG_PATH = path.join(K8S_DIR, 'admin.kubeconfig');
/** The kubectl built with the cluster (v1.20, from the same source); the machine's may be years newer. */
export const KUBECTL = path.join(K8S_DIR, 'bin', 'kubectl');
/** Every namespace a test makes carries this label, with the value `test`. */
export const NAMESPACE_LABEL = 'platform-k8s';

function kubectlArgs(args: string[]): string[] {
  // --cache-dir: kubectl would otherwise write its discovery cache to ~/.kube.
  return ['--kubeconfig', KUBECONFIG_PATH, '--cache-dir', path.join(K8S_DIR, 'kubectl-cache'), ...args];
}

/** Runs the cluster's kubectl; resolves with its stdout, rejects with its stderr. */
export function kubectl(args: string[], options: { input?: string; timeoutMs?: number } = {}): Promise<string> {
  return new Promise((resolve, reject) => {
    const child = spawn(KUBECTL, kubectlArgs(args), { stdio: ['pipe', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), options.timeoutMs ?? 60_000);
    child.on('error', (error) => {
      clearTimeout(timer);
      reject(error);
    });
    child.on('close', (code, signal) => {
      clearTimeout(timer);
      if (code === 0) resolve(stdout);
      else reject(new Error(`kubectl ${args.join(' ')}: ${signal ? `killed (${signal})` : `exit ${code}`}: ${stderr.trim()}`));
    });
    child.stdin.end(options.input ?? '');
  });
}

export interface KubernetesCluster {
  kubeconfigPath: string;
  kubectl: typeof kubectl;
  /** `kubectl apply` of objects (or YAML/JSON text) in `namespace`. */
  apply(namespace: string, objects: object[] | string): Promise<void>;
  /** `kubectl get -o json` of one object, or of a list when `name` is omitted. */
  get<T = unknown>(namespace: string, kind: string, name?: string, selector?: string): Promise<T>;
  /** A new namespace `platform-k8s-<prefix>-<random>`, deleted by {@link stop}. */
  createNamespace(prefix?: string): Promise<string>;
  /** Deletes the namespaces this handle made (the cluster itself keeps running). */
  stop(): Promise<void>;
}

/** Polls `check` every 500 ms until it returns a value other than undefined, or throws after `timeoutMs`. */
export async function waitFor<T>(what: string, check: () => Promise<T | undefined>, timeoutMs = 60_000): Promise<T> {
  const until = Date.now() + timeoutMs;
  let last: Error | undefined;
  for (;;) {
    try {
      const value = await check();
      if (value !== undefined) return value;
    } catch (error) {
      last = error instanceof Error ? error : new Error(String(error));
    }
    if (Date.now() > until) {
      throw new Error(`${what}: not within ${timeoutMs} ms${last ? ` (last error: ${last.message})` : ''}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

/**
 * Starts the cluster when it is not up (`.ci/k8s-up.sh`: 0.2 s when up, ~20 s with the binaries
 * cached, ~8 min more when it has to build them) and returns a handle for one test file.
 */
export async function startKubernetes(): Promise<KubernetesCluster> {
  await new Promise<void>((resolve, reject) => {
    const child = spawn('bash', [path.join(ROOT, '.ci/k8s-up.sh')], { stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.on('error', reject);
    child.on('close', (code) => (code === 0 ? resolve() : reject(new Error(`.ci/k8s-up.sh failed (exit ${code}):\n${output}`))));
  });
  const namespaces = new Set<string>();
  return {
    kubeconfigPath: KUBECONFIG_PATH,
    kubectl,
    async apply(namespace, objects) {
      const input = typeof objects === 'string' ? objects : JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects });
      await kubectl(['-n', namespace, 'apply', '-f', '-'], { input });
    },
    async get<T>(namespace: string, kind: string, name?: string, selector?: string): Promise<T> {
      const args = ['-n', namespace, 'get', kind, ...(name ? [name] : []), ...(selector ? ['-l', selector] : []), '-o', 'json'];
      return JSON.parse(await kubectl(args)) as T;
    },
    async createNamespace(prefix = 'test') {
      const name = `platform-k8s-${prefix}-${randomBytes(4).toString('hex')}`;
      const namespace = { apiVersion: 'v1', kind: 'Namespace', metadata: { name, labels: { [NAMESPACE_LABEL]: 'test' } } };
      await kubectl(['create', '-f', '-'], { input: JSON.stringify(namespace) });
      namespaces.add(name);
      // Pods are refused until the namespace's `default` service account exists.
      await waitFor(
        `service account default in ${name}`,
        async () => (await kubectl(['-n', name, 'get', 'serviceaccount', 'default'])) || undefined,
      );
      return name;
    },
    async stop() {
      for (const name of namespaces) {
        // --wait=false: the namespace controller finishes removing its pods in the background.
        await kubectl(['delete', 'namespace', name, '--wait=false', '--ignore-not-found']).catch(() => undefined);
      }
      namespaces.clear();
    },
  };
}

let probed: { ok: boolean; reason: string } | undefined;

/**
 * Whether a test file can use the cluster, decided synchronously while jest collects tests: yes
 * when the apiserver answers; else .ci/k8s-up.sh is run here when its binaries are already built
 * (about 20 s), or in any case when REQUIRE_KUBERNETES=1. A cluster started here is left running
 * for the next files and runs (`bash .ci/k8s-down.sh` stops it); PLATFORM_K8S_AUTOSTART=0 turns
 * the start off.
 */
export function kubernetesAvailable(): { ok: boolean; reason: string } {
  if (probed) return probed;
  const ready = () =>
    existsSync(KUBECTL) &&
    existsSync(KUBECONFIG_PATH) &&
    spawnSync(KUBECTL, kubectlArgs(['get', '--raw', '/readyz']), { encoding: 'utf8', timeout: 15_000 }).stdout?.trim() === 'ok';
  if (ready()) return (probed = { ok: true, reason: '' });

  const required = process.env.REQUIRE_KUBERNETES === '1';
  const cached = spawnSync('bash', [path.join(ROOT, '.ci/k8s-build.sh'), '--cached'], { encoding: 'utf8', timeout: 60_000 }).status === 0;
  if (process.env.PLATFORM_K8S_AUTOSTART === '0') {
    return (probed = { ok: false, reason: `no cluster answers at ${KUBECONFIG_PATH} (PLATFORM_K8S_AUTOSTART=0)` });
  }
  if (!cached && !required) {
    return (probed = {
      ok: false,
      reason: 'no cluster is up and its binaries are not built (bash .ci/k8s-up.sh builds them, ~8 min, then starts it)',
    });
  }
  const up = spawnSync('bash', [path.join(ROOT, '.ci/k8s-up.sh')], { encoding: 'utf8', timeout: 30 * 60_000 });
  if (up.status === 0 && ready()) return (probed = { ok: true, reason: '' });
  const tail = `${up.stderr ?? ''}${up.stdout ?? ''}`.trim().split('\n').slice(-5).join('\n');
  return (probed = { ok: false, reason: `.ci/k8s-up.sh failed (exit ${up.status ?? up.signal}): ${tail}` });
}

/**
 * `describe` for suites that need the cluster: skipped with the reason when there is none, and
 * failed instead when REQUIRE_KUBERNETES=1 (CI), so a broken cluster cannot pass as "skipped".
 */
export function describeKubernetes(name: string, fn: () => void): void {
  const { ok, reason } = kubernetesAvailable();
  if (ok) {
    describe(name, fn);
  } else if (process.env.REQUIRE_KUBERNETES === '1') {
    describe(name, () => {
      test('needs the Kubernetes test cluster (REQUIRE_KUBERNETES=1)', () => {
        throw new Error(reason);
      });
    });
  } else {
    console.warn(`skipping "${name}": ${reason} (REQUIRE_KUBERNETES=1 makes this a failure)`);
    // eslint-disable-next-line jest/no-disabled-tests -- the one skip of a missing cluster; REQUIRE_KUBERNETES=1 (CI) fails instead
    describe.skip(`${name} [skipped: ${reason}]`, fn);
  }
}
