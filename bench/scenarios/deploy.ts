import { execFile } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import { Pool } from 'undici';
import { planDeployment, type MappingOptions } from '../../src/agent/adapters/kubernetes/mapping';
import { parseDescriptor } from '../../src/agent/descriptor';
import type { AgentsStarted } from '../lib/agents-child';
import { load1 } from '../lib/curve';
import { ipcClient } from '../lib/ipc';
import { median } from '../lib/load';
import type { BenchPostgres } from '../lib/postgres';
import { startTs } from '../lib/processes';
import { round, type ScenarioResult } from '../lib/types';

const run = promisify(execFile);
const IMAGE = 'platform-test/busybox:latest';
const IMAGES = ['web', 'api', 'worker', 'cache', 'db'];
const ROUNDS = 3;
const NAME = 'Deploy: 5-image template through the agent’s docker adapter vs docker CLI in parallel';
const TARGET = 'adapter ≤ 1.3× the CLI';

/**
 * Scenario 5 (needs a Docker engine with the local test image; never pulls). The agent (real,
 * HTTPS, docker adapter) deploys a 5-image template: POST /deployments answers once every
 * container runs. Baseline: a network plus the same 5 containers by `docker run -d`, all at
 * once. Each side 3 times, alternating; everything made is removed.
 */
export async function deployVsCli(pg: BenchPostgres): Promise<ScenarioResult> {
  const missing = await run('docker', ['image', 'inspect', IMAGE]).then(
    () => null,
    (error: Error) => error.message.split('\n')[0],
  );
  if (missing)
    return {
      scenario: 5,
      name: NAME,
      figures: {},
      baseline: null,
      ratio: null,
      target: TARGET,
      met: null,
      note: `skipped: no Docker engine or no ${IMAGE} here (${missing})`,
    };
  const agents = startTs('bench/lib/agents-child.ts', {}, { ipc: true });
  const call = ipcClient(agents);
  try {
    const { tokens } = await call<AgentsStarted>('start', {
      databaseUrls: [await pg.createDatabase('bench_deploy_agent')],
      latencyMs: 0,
      docker: true,
    });
    const [url, username, password, certPem] = Buffer.from(tokens[0], 'base64').toString('utf8').split('|');
    const pool = new Pool(url, { connect: { ca: certPem } });
    const headers = {
      authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
      'content-type': 'application/json',
    };
    const template = { template: { name: 'bench', images: IMAGES.map((name) => ({ name, source: IMAGE, command: 'sleep 3600' })) } };
    const adapter: number[] = [];
    const cli: number[] = [];
    try {
      for (let i = 0; i < ROUNDS; i++) {
        let started = performance.now();
        const res = await pool.request({ method: 'POST', path: '/deployments', headers, body: JSON.stringify(template) });
        const body = (await res.body.json()) as { id: number; service_ids: string[] };
        if (res.statusCode !== 200) throw new Error(`agent deploy: HTTP ${res.statusCode} ${JSON.stringify(body)}`);
        adapter.push(performance.now() - started);
        await (await pool.request({ method: 'DELETE', path: `/deployments/${body.id}`, headers })).body.dump();

        const network = `bench-cli-${process.pid}-${i}`;
        started = performance.now();
        try {
          await run('docker', ['network', 'create', '--label', 'platform-bench=1', network]);
          await Promise.all(
            IMAGES.map((name) =>
              run('docker', [
                'run',
                '-d',
                '--name',
                `${network}-${name}`,
                '--label',
                'platform-bench=1',
                '--network',
                network,
                '--network-alias',
                name,
                '--restart',
                'unless-stopped',
                IMAGE,
                'sleep',
                '3600',
              ]),
            ),
          );
          cli.push(performance.now() - started);
        } finally {
          await run('docker', ['rm', '-f', ...IMAGES.map((name) => `${network}-${name}`)]).catch(() => undefined);
          await run('docker', ['network', 'rm', network]).catch(() => undefined);
        }
      }
    } finally {
      await pool.close();
    }
    const adapterMs = round(median(adapter), 0);
    const cliMs = round(median(cli), 0);
    const ratio = round(adapterMs / cliMs, 2);
    return {
      scenario: 5,
      name: NAME,
      figures: { adapterMsMedian: adapterMs, adapterMsAll: adapter.map((ms) => round(ms, 0)).join(' / ') },
      baseline: { cliMsMedian: cliMs, cliMsAll: cli.map((ms) => round(ms, 0)).join(' / ') },
      ratio,
      target: TARGET,
      met: ratio <= 1.3,
    };
  } finally {
    await call('stop').catch(() => undefined);
    await agents.stop();
  }
}

const K8S_DIR = process.env.PLATFORM_K8S_DIR ?? '/tmp/platform-k8s';
const K8S_NAME = 'Deploy: 5-image template through the agent’s kubernetes adapter vs kubectl apply of the same objects';
const K8S_TARGET = 'adapter ≤ 1.3× kubectl, accepted and running';

/**
 * Scenario 18 (needs the test cluster of .ci/k8s-up.sh, whose kubelet runs pods on the local
 * engine: images are never pulled). The agent (real, HTTPS, AGENT_ADAPTER=kubernetes) deploys
 * the 5-image template into a namespace of the bench's own; timed until POST /deployments
 * answers (the objects are made) and until its status says every service runs. Baseline: the
 * very objects the adapter makes (its own planDeployment, another name) by `kubectl apply`, then
 * `kubectl wait --for=condition=Available`. Each side 3 times, alternating; every object and the
 * namespace are removed.
 */
export async function deployKubernetesVsKubectl(pg: BenchPostgres, rounds = ROUNDS): Promise<ScenarioResult> {
  const kubeconfig = path.join(K8S_DIR, 'admin.kubeconfig');
  const kubectlBin = path.join(K8S_DIR, 'bin', 'kubectl');
  const kubectl = (args: string[], input?: string) =>
    new Promise<string>((resolve, reject) => {
      const child = execFile(
        kubectlBin,
        ['--kubeconfig', kubeconfig, '--cache-dir', path.join(K8S_DIR, 'kubectl-cache'), ...args],
        { timeout: 180_000, maxBuffer: 16 * 1024 * 1024 },
        (error, stdout, stderr) => (error ? reject(new Error(`kubectl ${args.join(' ')}: ${stderr || error.message}`)) : resolve(stdout)),
      );
      child.stdin?.end(input ?? '');
    });
  const skipped = (why: string): ScenarioResult => ({
    scenario: 18,
    name: K8S_NAME,
    figures: {},
    baseline: null,
    ratio: null,
    target: K8S_TARGET,
    met: null,
    note: `skipped: ${why}`,
  });
  if (!existsSync(kubeconfig) || !existsSync(kubectlBin)) return skipped(`no test cluster at ${K8S_DIR} (bash .ci/k8s-up.sh)`);
  const reachable = await kubectl(['get', '--raw', '/readyz']).then(
    () => null,
    (error: Error) => error.message.split('\n')[0],
  );
  if (reachable) return skipped(`the test cluster does not answer (${reachable})`);
  const missing = await run('docker', ['image', 'inspect', IMAGE]).then(
    () => null,
    (error: Error) => error.message.split('\n')[0],
  );
  if (missing) return skipped(`no ${IMAGE} on the engine (${missing})`);

  const namespace = `platform-k8s-bench-${randomBytes(4).toString('hex')}`;
  await kubectl(
    ['create', '-f', '-'],
    JSON.stringify({ apiVersion: 'v1', kind: 'Namespace', metadata: { name: namespace, labels: { 'platform-k8s': 'bench' } } }),
  );
  const agents = startTs('bench/lib/agents-child.ts', {}, { ipc: true });
  const call = ipcClient(agents);
  try {
    // Pods are refused until the namespace's default service account exists.
    for (
      let i = 0;
      i < 100 &&
      !(await kubectl(['-n', namespace, 'get', 'serviceaccount', 'default']).then(
        () => true,
        () => false,
      ));
      i++
    )
      await new Promise((resolve) => setTimeout(resolve, 200));
    const { tokens } = await call<AgentsStarted>('start', {
      databaseUrls: [await pg.createDatabase('bench_deploy_k8s_agent')],
      latencyMs: 0,
      kubernetes: { kubeconfig, namespace },
    });
    const [url, username, password, certPem] = Buffer.from(tokens[0], 'base64').toString('utf8').split('|');
    const pool = new Pool(url, { connect: { ca: certPem } });
    const headers = {
      authorization: `Basic ${Buffer.from(`${username}:${password}`).toString('base64')}`,
      'content-type': 'application/json',
    };
    const template = { template: { name: 'bench', images: IMAGES.map((name) => ({ name, source: IMAGE, command: 'sleep 3600' })) } };
    const mapping: MappingOptions = {
      namespace,
      imagePullPolicy: 'Never',
      imagePullSecrets: [],
      allowHostPath: false,
      volumeSize: '1Gi',
      stopTimeoutSec: 10,
      rolloutTimeoutSec: 90,
    };
    const timings = {
      adapterAccepted: [] as number[],
      adapterRunning: [] as number[],
      cliApplied: [] as number[],
      cliAvailable: [] as number[],
    };
    try {
      for (let i = 0; i < rounds; i++) {
        let started = performance.now();
        const res = await pool.request({ method: 'POST', path: '/deployments', headers, body: JSON.stringify(template) });
        const body = (await res.body.json()) as { id: number };
        if (res.statusCode !== 200) throw new Error(`agent deploy: HTTP ${res.statusCode} ${JSON.stringify(body)}`);
        timings.adapterAccepted.push(performance.now() - started);
        for (;;) {
          const status = await pool.request({ method: 'GET', path: `/deployments/${body.id}`, headers });
          const { status: s } = (await status.body.json()) as { status: { services: { actualState: string }[] } };
          if (s.services.length === IMAGES.length && s.services.every((x) => x.actualState === 'running')) break;
          if (performance.now() - started > 180_000) throw new Error(`agent deployment ${body.id} not running: ${JSON.stringify(s)}`);
          await new Promise((resolve) => setTimeout(resolve, 100));
        }
        timings.adapterRunning.push(performance.now() - started);
        await (await pool.request({ method: 'DELETE', path: `/deployments/${body.id}`, headers })).body.dump();

        const key = `cli${i}`;
        const plan = planDeployment(parseDescriptor(template), key, key, mapping);
        const objects = plan.images.flatMap((image) => [
          ...image.claims,
          ...(image.serviceObject ? [image.serviceObject] : []),
          image.deployment(new Map()),
        ]);
        started = performance.now();
        await kubectl(['-n', namespace, 'apply', '-f', '-'], JSON.stringify({ apiVersion: 'v1', kind: 'List', items: objects }));
        timings.cliApplied.push(performance.now() - started);
        await kubectl([
          '-n',
          namespace,
          'wait',
          '--for=condition=Available',
          '--timeout=180s',
          'deployment',
          '-l',
          `platform.agent/deployment=${key}`,
        ]);
        timings.cliAvailable.push(performance.now() - started);
        await kubectl([
          '-n',
          namespace,
          'delete',
          'deployment,service',
          '-l',
          `platform.agent/deployment=${key}`,
          '--cascade=foreground',
          '--wait=true',
        ]);
      }
    } finally {
      await pool.close();
    }
    const m = (values: number[]) => round(median(values), 0);
    const all = (values: number[]) => values.map((ms) => round(ms, 0)).join(' / ');
    const accepted = round(m(timings.adapterAccepted) / m(timings.cliApplied), 2);
    const running = round(m(timings.adapterRunning) / m(timings.cliAvailable), 2);
    return {
      scenario: 18,
      name: K8S_NAME,
      figures: {
        acceptedMsMedian: m(timings.adapterAccepted),
        acceptedMsAll: all(timings.adapterAccepted),
        runningMsMedian: m(timings.adapterRunning),
        runningMsAll: all(timings.adapterRunning),
        runningRatio: running,
      },
      baseline: {
        appliedMsMedian: m(timings.cliApplied),
        appliedMsAll: all(timings.cliApplied),
        availableMsMedian: m(timings.cliAvailable),
        availableMsAll: all(timings.cliAvailable),
      },
      ratio: accepted,
      target: K8S_TARGET,
      met: accepted <= 1.3 && running <= 1.3,
      note: `ratio: POST answered / kubectl apply returned; runningRatio: every pod running (agent status, polled every 100 ms) / kubectl wait Available; load ${load1()}`,
    };
  } finally {
    await call('stop').catch(() => undefined);
    await agents.stop();
    await kubectl(['delete', 'namespace', namespace, '--wait=false']).catch(() => undefined);
  }
}
