import { expect } from '@jest/globals';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { agentVersion } from '../../src/agent/version';
import { TEST_IMAGE } from '../helpers/docker';
import { describeKubernetes, startKubernetes, waitFor, type KubernetesCluster } from '../helpers/kubernetes';
import { agentRequest, type RunningAgent } from './agent-harness';
import {
  allRunning,
  deploymentLabel,
  isReady,
  objectsOf,
  podsOf,
  startKubernetesAgent,
  tagTestImage,
  waitForServices,
  type DeploymentStatusBody,
  type PodJson,
} from './kubernetes-agent';

interface DeploymentBody {
  id: number;
  name: string | null;
  template: number | null;
  service_ids: string[];
  redeployable: boolean;
}

interface DeploymentJson {
  metadata: { name: string; generation: number; labels: Record<string, string>; annotations: Record<string, string> };
  spec: {
    replicas: number;
    template: {
      metadata: { labels: Record<string, string> };
      spec: {
        containers: { name: string; image: string; imagePullPolicy: string; args?: string[]; env?: { name: string; value: string }[] }[];
        hostAliases?: { ip: string; hostnames: string[] }[];
        volumes?: unknown[];
      };
    };
  };
}

interface ServiceJson {
  metadata: { name: string; labels: Record<string, string> };
  spec: { type: string; clusterIP: string; ports: { name: string; port: number; protocol: string; nodePort?: number }[] };
}

/** Everything but what the kubelet adds to every container (its own name, and the API server's Service). */
function templateEnvironment(env: string): string[] {
  return env
    .trim()
    .split('\n')
    .filter((line) => !/^(KUBERNETES_[A-Z0-9_]*|HOSTNAME|HOME|PATH|PWD|SHLVL)=/.test(line))
    .sort();
}

/**
 * The kubernetes adapter against the real test cluster (.ci/k8s-up.sh): the agent in-process
 * with AGENT_ADAPTER=kubernetes, driven through interface B, and the cluster read back with its
 * own kubectl. Each file works in namespaces of its own.
 */
describeKubernetes('agent with the kubernetes adapter', () => {
  let cluster: KubernetesCluster;
  let namespace: string;
  let agent: RunningAgent;

  beforeAll(async () => {
    cluster = await startKubernetes();
    namespace = await cluster.createNamespace('adapter');
    agent = await startKubernetesAgent(cluster, namespace);
  }, 120_000);

  afterAll(async () => {
    await agent?.close();
    await cluster?.stop();
  }, 60_000);

  async function deploy(template: object, override?: object): Promise<DeploymentBody> {
    const res = await agentRequest<DeploymentBody>(agent, 'POST', '/deployments', {
      body: { template, ...(override ? { override } : {}) },
    });
    if (res.status !== 200) throw new Error(`POST /deployments: ${res.status} ${JSON.stringify(res.body)}`);
    return res.body;
  }

  async function remove(id: number): Promise<void> {
    const res = await agentRequest(agent, 'DELETE', `/deployments/${id}`);
    expect(res.status).toBe(204);
  }

  test("metadata: the adapter's type and the cluster's version", async () => {
    const version = JSON.parse(await cluster.kubectl(['version', '-o', 'json'])) as { serverVersion: { gitVersion: string } };
    const res = await agentRequest(agent, 'GET', '/metadata');
    expect(res).toMatchObject({ status: 200 });
    expect(res.body).toEqual({
      agent: { version: agentVersion, features: ['redeploy_descriptor'] },
      adapter: { version: version.serverVersion.gitVersion, type: 'kubernetes' },
    });
  });

  test('deploy: labelled objects, pods running the command with the environment and links; pending, then running; delete leaves nothing', async () => {
    const created = await deploy(
      {
        id: 5,
        name: 'shop',
        images: [
          {
            name: 'web',
            source: TEST_IMAGE,
            command: `sh -c 'echo "$GREETING from $HOSTNAME"; exec sleep 3600'`,
            environment: [{ variable: 'GREETING', value: 'from the template' }],
            ports: [{ container_port: 8080 }],
            links: [{ service: 'db', alias: 'database' }],
            volumes: [{ container_path: '/data' }],
          },
          {
            name: 'db',
            source: TEST_IMAGE,
            command: 'sleep 3600',
            expose: ['5432'],
            environment: [{ variable: 'PASSWORD', value: 's3cret' }],
          },
        ],
      },
      { images: [{ name: 'web', environment: [{ variable: 'GREETING', value: 'hello' }], deployment: { count: 2 } }] },
    );
    expect(created).toEqual({
      id: expect.any(Number),
      name: 'shop',
      template: 5,
      service_ids: [expect.stringMatching(/^platform-d\d+-[0-9a-f]{6}-web$/), expect.stringMatching(/^platform-d\d+-[0-9a-f]{6}-db$/)],
      redeployable: true,
    });
    const [webId, dbId] = created.service_ids;

    // Right after the create no pod is ready yet.
    const first = await agentRequest<DeploymentStatusBody>(agent, 'GET', `/deployments/${created.id}`);
    expect(first.body.status.services.map((s) => [s.id, s.actualState])).toEqual([
      [webId, 'pending'],
      [dbId, 'pending'],
    ]);
    expect(first.body.status.services.every((s) => typeof s.reason === 'string' && s.reason.length > 0)).toBe(true);

    expect(await waitForServices(agent, created.id, allRunning, 'running')).toEqual([
      { id: webId, actualState: 'running' },
      { id: dbId, actualState: 'running' },
    ]);

    const deployment = await deploymentLabel(cluster, namespace, webId);
    const key = deployment; // the first generation's key names the deployment
    const labels = { 'app.kubernetes.io/managed-by': 'platform-agent', 'platform.agent/deployment': deployment, 'platform.agent/key': key };
    const web = await cluster.get<DeploymentJson>(namespace, 'deployment', webId);
    expect(web.metadata.labels).toEqual({ ...labels, 'platform.agent/service': 'web' });
    expect(web.metadata.annotations).toMatchObject({ 'platform.agent/image': 'web' });
    expect(web.spec.replicas).toBe(2);
    const db = await cluster.get<ServiceJson>(namespace, 'service', dbId);
    const webService = await cluster.get<ServiceJson>(namespace, 'service', webId);
    expect(webService.spec).toMatchObject({ type: 'ClusterIP', ports: [{ name: 'tcp-8080', port: 8080, protocol: 'TCP' }] });
    expect(db.metadata.labels).toEqual({ ...labels, 'platform.agent/service': 'db' });
    expect(web.spec.template.spec.containers).toEqual([
      expect.objectContaining({
        name: 'web',
        image: TEST_IMAGE,
        imagePullPolicy: 'IfNotPresent',
        args: ['sh', '-c', 'echo "$GREETING from $HOSTNAME"; exec sleep 3600'],
      }),
    ]);
    expect(web.spec.template.spec.hostAliases).toEqual([
      { ip: webService.spec.clusterIP, hostnames: ['web'] },
      { ip: db.spec.clusterIP, hostnames: ['db', 'database'] },
    ]);
    const claim = `${webId}-v0`;
    expect(await objectsOf(cluster, namespace, deployment)).toEqual({
      deployments: [dbId, webId].sort(),
      replicasets: [expect.stringMatching(new RegExp(`^${dbId}-`)), expect.stringMatching(new RegExp(`^${webId}-`))],
      services: [dbId, webId].sort(),
      persistentvolumeclaims: [claim],
      pods: expect.arrayContaining([expect.stringMatching(new RegExp(`^${webId}-`))]),
    });
    const bound = await waitFor('the claim bound', async () => {
      const pvc = await cluster.get<{ status: { phase: string } }>(namespace, 'pvc', claim);
      return pvc.status.phase === 'Bound' ? pvc.status.phase : undefined;
    });
    expect(bound).toBe('Bound');

    // In each pod: the command ran with the template's variables, the legacy link variables point
    // at the linked Service, and the names resolve through /etc/hosts.
    const pods = await podsOf(cluster, namespace, webId);
    expect(pods).toHaveLength(2);
    for (const pod of pods) {
      expect(pod.status.phase).toBe('Running');
      const logs = await waitFor(`logs of ${pod.metadata.name}`, async () => {
        const out = await cluster.kubectl(['-n', namespace, 'logs', pod.metadata.name]);
        return out.trim() ? out : undefined;
      });
      expect(logs.trim()).toBe(`hello from ${pod.metadata.name}`);
      const env = await cluster.kubectl(['-n', namespace, 'exec', pod.metadata.name, '--', 'env']);
      const ip = db.spec.clusterIP;
      expect(templateEnvironment(env)).toEqual(
        [
          'GREETING=hello',
          `DATABASE_PORT=tcp://${ip}:5432`,
          `DATABASE_PORT_5432_TCP=tcp://${ip}:5432`,
          `DATABASE_PORT_5432_TCP_ADDR=${ip}`,
          'DATABASE_PORT_5432_TCP_PORT=5432',
          'DATABASE_PORT_5432_TCP_PROTO=tcp',
          `DATABASE_NAME=/${webId}/database`,
          'DATABASE_ENV_PASSWORD=s3cret',
        ].sort(),
      );
      const hosts = await cluster.kubectl(['-n', namespace, 'exec', pod.metadata.name, '--', 'cat', '/etc/hosts']);
      expect(hosts.split('# Entries added by HostAliases.\n')[1].trim().split('\n')).toEqual([
        `${webService.spec.clusterIP}\tweb`,
        `${ip}\tdb\tdatabase`,
      ]);
      // The named volume is the claim's, writable.
      await cluster.kubectl(['-n', namespace, 'exec', pod.metadata.name, '--', 'sh', '-c', `echo ${pod.metadata.name} > /data/$HOSTNAME`]);
    }

    await remove(created.id);
    // The delete waited: nothing of the deployment is left, pods included.
    expect(await objectsOf(cluster, namespace, deployment)).toEqual({
      deployments: [],
      replicasets: [],
      services: [],
      persistentvolumeclaims: [],
      pods: [],
    });
    expect((await agentRequest(agent, 'GET', `/deployments/${created.id}`)).status).toBe(404);
  }, 240_000);

  test('failed: a missing image (ImagePullBackOff) and a crashing command (CrashLoopBackOff), with the reasons', async () => {
    const missing = `platform-test/missing-${Date.now()}:1`;
    const created = await deploy({
      name: 'broken',
      images: [
        { name: 'ghost', source: missing },
        { name: 'crash', source: TEST_IMAGE, command: `sh -c 'echo crashing; exit 3'` },
      ],
    });
    const [ghost, crash] = created.service_ids;
    const seen = new Set<string>();
    await waitForServices(
      agent,
      created.id,
      (services) => {
        for (const s of services) if (s.actualState === 'failed') seen.add(`${s.id} ${s.reason?.split(':')[0]}`);
        return seen.has(`${ghost} ImagePullBackOff`) && seen.has(`${crash} CrashLoopBackOff`);
      },
      'ImagePullBackOff and CrashLoopBackOff',
    );
    const services = await waitForServices(
      agent,
      created.id,
      (s) => s[0].reason?.startsWith('ImagePullBackOff') === true && s[1].reason?.startsWith('CrashLoopBackOff') === true,
    );
    expect(services).toEqual([
      { id: ghost, actualState: 'failed', reason: `ImagePullBackOff: Back-off pulling image "${missing}"` },
      {
        id: crash,
        actualState: 'failed',
        reason: expect.stringMatching(/^CrashLoopBackOff: back-off \d+s restarting failed container=crash pod=/),
      },
    ]);
    const [pod] = await podsOf(cluster, namespace, crash);
    expect((await cluster.kubectl(['-n', namespace, 'logs', pod.metadata.name])).trim()).toBe('crashing');
    await remove(created.id);
  }, 240_000);

  test('redeploy: a rolling update of the same objects, which take the new key; the old pods go', async () => {
    const created = await deploy({ name: 'rolling', images: [{ name: 'app', source: TEST_IMAGE, command: 'sleep 3600', expose: [80] }] });
    const [id] = created.service_ids;
    await waitForServices(agent, created.id, allRunning);
    const deployment = await deploymentLabel(cluster, namespace, id);
    const before = (await podsOf(cluster, namespace, id)).map((pod) => pod.metadata.name);
    const ip = (await cluster.get<ServiceJson>(namespace, 'service', id)).spec.clusterIP;

    const redeployed = await agentRequest<DeploymentBody>(agent, 'POST', `/deployments/${created.id}/redeploy`);
    // The agent answers once the rollout is done: the same ids.
    expect(redeployed.status).toBe(200);
    expect(redeployed.body).toEqual({ ...created });
    const after = await podsOf(cluster, namespace, id);
    expect(after).toHaveLength(1);
    expect(isReady(after[0])).toBe(true);
    expect(before).not.toContain(after[0].metadata.name);
    const newKey = after[0].metadata.labels!['platform.agent/key'];
    expect(newKey).toMatch(/^d\d+-[0-9a-f]{6}$/);
    expect(newKey).not.toBe(deployment);
    const objects = await objectsOf(cluster, namespace, deployment);
    expect({ ...objects, replicasets: objects.replicasets.length, pods: undefined }).toEqual({
      deployments: [id],
      services: [id],
      persistentvolumeclaims: [],
      replicasets: 2,
      pods: undefined,
    });
    for (const kind of ['deployment', 'service']) {
      const object = await cluster.get<{ metadata: { labels: Record<string, string> } }>(namespace, kind, id);
      expect(object.metadata.labels['platform.agent/key']).toBe(newKey);
    }
    // The Service kept its address, which the pods' hostAliases name.
    expect((await cluster.get<ServiceJson>(namespace, 'service', id)).spec.clusterIP).toBe(ip);
    expect(await waitForServices(agent, created.id, allRunning)).toEqual([{ id, actualState: 'running' }]);
    await remove(created.id);
    expect(await objectsOf(cluster, namespace, deployment)).toEqual({
      deployments: [],
      replicasets: [],
      services: [],
      persistentvolumeclaims: [],
      pods: [],
    });
  }, 240_000);

  test('a rollout that is not ready in time is undone: 502 with the reason, the previous pods keep running', async () => {
    const image = tagTestImage('rollout');
    try {
      const created = await deploy({ name: 'undo', images: [{ name: 'app', source: image.ref, command: 'sleep 3600' }] });
      const [id] = created.service_ids;
      await waitForServices(agent, created.id, allRunning);
      const previous = await podsOf(cluster, namespace, id);
      const previousGeneration = (await cluster.get<DeploymentJson>(namespace, 'deployment', id)).spec.template;

      // The image is gone from the node: the new pods cannot start, the running one is unaffected.
      // (ErrImagePull's message names the repository, ImagePullBackOff's the image with its tag.)
      image.untag();
      const res = await agentRequest(agent, 'POST', `/deployments/${created.id}/redeploy`);
      expect(res).toMatchObject({ status: 502 });
      expect(res.body).toEqual({
        code: 502,
        message: expect.stringMatching(
          new RegExp(
            `^The rollout of ${id} in namespace ${namespace} did not become ready within 20 s \\((ErrImagePull|ImagePullBackOff): .*${image.ref.split(':')[0].replace(/[./]/g, '\\$&')}.*\\)\\. It was undone: the previous version keeps running\\.$`,
          ),
        ),
        fields: '',
      });

      // The previous pod never stopped, and the Deployment has the previous template again.
      const settled = await waitFor('only the previous pod left', async () => {
        const pods = await podsOf(cluster, namespace, id);
        return pods.length === 1 ? pods : undefined;
      });
      expect(settled.map((pod: PodJson) => [pod.metadata.name, isReady(pod)])).toEqual([[previous[0].metadata.name, true]]);
      expect((await cluster.get<DeploymentJson>(namespace, 'deployment', id)).spec.template).toEqual(previousGeneration);
      expect(await waitForServices(agent, created.id, allRunning)).toEqual([{ id, actualState: 'running' }]);
      // The agent still knows the deployment as it was, and removes it whole.
      const listed = await agentRequest<DeploymentBody[]>(agent, 'GET', '/deployments');
      expect(listed.body.find((d) => d.id === created.id)).toEqual(created);
      await remove(created.id);
    } finally {
      image.untag();
    }
  }, 240_000);

  test('names the cluster would refuse are mapped to valid ones; the image name is kept in an annotation', async () => {
    const long = `Worker ${'x'.repeat(70)}`;
    const created = await deploy({
      name: 'names',
      images: [
        { name: 'Web Server_1', source: TEST_IMAGE, command: 'sleep 3600', ports: [{ container_port: 80 }] },
        { name: long, source: TEST_IMAGE, command: 'sleep 3600', links: [{ service: 'Web Server_1', alias: 'front' }] },
      ],
    });
    for (const id of created.service_ids) {
      expect(id).toMatch(/^[a-z]([-a-z0-9]{0,61}[a-z0-9])$/);
    }
    expect(created.service_ids[0]).toMatch(/^platform-d\d+-[0-9a-f]{6}-web-server-1-[0-9a-f]{6}$/);
    expect(created.service_ids[1]).toHaveLength(63);
    await waitForServices(agent, created.id, allRunning);
    const annotations = await Promise.all(
      created.service_ids.map(
        async (id) => (await cluster.get<DeploymentJson>(namespace, 'deployment', id)).metadata.annotations['platform.agent/image'],
      ),
    );
    expect(annotations).toEqual(['Web Server_1', long]);
    // The alias is a host name; the image's own name, with a blank, is not.
    const worker = await cluster.get<DeploymentJson>(namespace, 'deployment', created.service_ids[1]);
    expect(worker.spec.template.spec.hostAliases).toEqual([{ ip: expect.any(String), hostnames: ['front'] }]);
    await remove(created.id);
  }, 240_000);

  test('a host port becomes a node port; one outside the cluster’s range is a 422 naming it', async () => {
    const refused = await agentRequest(agent, 'POST', '/deployments', {
      body: {
        template: {
          name: 'np',
          images: [{ name: 'web', source: TEST_IMAGE, command: 'sleep 3600', ports: [{ container_port: 80, host_port: 8080 }] }],
        },
      },
    });
    expect(refused).toMatchObject({ status: 422 });
    expect(refused.body).toEqual({
      code: 422,
      message:
        'The cluster refused the host port of image "web" as a node port: template.images[0].ports[0].host_port: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
      fields: 'template.images[0].ports[0].host_port',
    });
    // Nothing was kept, on the agent or in the namespace.
    expect((await agentRequest<DeploymentBody[]>(agent, 'GET', '/deployments')).body.filter((d) => d.name === 'np')).toEqual([]);
    const leftovers = await cluster.get<{ items: unknown[] }>(
      namespace,
      'deployments,services,pvc',
      undefined,
      'app.kubernetes.io/managed-by=platform-agent',
    );
    expect(leftovers.items).toEqual([]);

    // A free port of the range (the cluster is shared: try a few).
    let created: DeploymentBody | undefined;
    let nodePort = 0;
    for (let attempt = 0; !created && attempt < 5; attempt++) {
      nodePort = 30000 + Math.floor(Math.random() * 2767);
      const res = await agentRequest<DeploymentBody>(agent, 'POST', '/deployments', {
        body: {
          template: {
            name: 'np',
            images: [
              {
                name: 'web',
                source: TEST_IMAGE,
                command: 'sleep 3600',
                expose: ['81'],
                ports: [{ container_port: 80, host_port: nodePort }],
              },
            ],
          },
        },
      });
      if (res.status === 200) created = res.body;
      else expect(res.body).toMatchObject({ code: 422, message: expect.stringContaining('already allocated') });
    }
    const service = await cluster.get<ServiceJson>(namespace, 'service', created!.service_ids[0]);
    expect(service.spec.type).toBe('NodePort');
    expect(service.spec.ports).toEqual([
      expect.objectContaining({ name: 'tcp-80', port: 80, protocol: 'TCP', nodePort }),
      // The cluster gives the other ports node ports of its choosing.
      expect.objectContaining({ name: 'tcp-81', port: 81, protocol: 'TCP', nodePort: expect.any(Number) }),
    ]);
    await remove(created!.id);
  }, 240_000);

  test('a host path is a 422 naming it, unless AGENT_KUBERNETES_ALLOW_HOST_PATH=true: then the pod writes there', async () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'k8s-host-path-'));
    const template = {
      name: 'hostpath',
      images: [
        {
          name: 'writer',
          source: TEST_IMAGE,
          command: `sh -c 'echo written by $HOSTNAME > /out/file; exec sleep 3600'`,
          volumes: [{ host_path: dir, container_path: '/out' }],
        },
      ],
    };
    try {
      const refused = await agentRequest(agent, 'POST', '/deployments', { body: { template } });
      expect(refused).toMatchObject({ status: 422 });
      expect(refused.body).toEqual({
        code: 422,
        message: `The template cannot run on Kubernetes: template.images[0].volumes[0].host_path is a path on the node (${dir}), which the agent refuses unless AGENT_KUBERNETES_ALLOW_HOST_PATH=true.`,
        fields: 'template.images[0].volumes[0].host_path',
      });

      const allowing = await startKubernetesAgent(cluster, namespace, { AGENT_KUBERNETES_ALLOW_HOST_PATH: 'true' });
      try {
        const res = await agentRequest<DeploymentBody>(allowing, 'POST', '/deployments', { body: { template } });
        expect(res.status).toBe(200);
        await waitForServices(allowing, res.body.id, allRunning);
        // The one node is this machine: the file is in the directory.
        const [pod] = await podsOf(cluster, namespace, res.body.service_ids[0]);
        const written = await waitFor('the file on the host', () => {
          try {
            return Promise.resolve(readFileSync(path.join(dir, 'file'), 'utf8').trim() || undefined);
          } catch {
            return Promise.resolve(undefined);
          }
        });
        expect(written).toBe(`written by ${pod.metadata.name}`);
        expect((await agentRequest(allowing, 'DELETE', `/deployments/${res.body.id}`)).status).toBe(204);
      } finally {
        await allowing.close();
      }
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  }, 240_000);

  describe('in a namespace with a quota', () => {
    let limited: string;
    let quotaAgent: RunningAgent;
    beforeAll(async () => {
      limited = await cluster.createNamespace('quota');
      quotaAgent = await startKubernetesAgent(cluster, limited);
    }, 60_000);
    afterAll(() => quotaAgent?.close());

    test("a quota the objects exceed is a 422 with the cluster's message; what was made is removed", async () => {
      await cluster.apply(limited, [
        { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'no-services' }, spec: { hard: { services: '0' } } },
      ]);
      // The quota controller must have counted the namespace before the quota is enforced.
      await waitFor('the quota counted', async () => {
        const quota = await cluster.get<{ status?: { used?: Record<string, string> } }>(limited, 'resourcequota', 'no-services');
        return quota.status?.used ? true : undefined;
      });
      const res = await agentRequest(quotaAgent, 'POST', '/deployments', {
        body: {
          template: {
            name: 'q',
            images: [
              {
                name: 'web',
                source: TEST_IMAGE,
                command: 'sleep 3600',
                ports: [{ container_port: 80 }],
                volumes: [{ container_path: '/d' }],
              },
            ],
          },
        },
      });
      expect(res).toMatchObject({ status: 422 });
      expect(res.body).toEqual({
        code: 422,
        message: expect.stringMatching(
          new RegExp(
            `^The namespace's quota refused to create services in namespace ${limited}: services "platform-d\\d+-[0-9a-f]{6}-web" is forbidden: exceeded quota: no-services, requested: services=1, used: services=0, limited: services=0$`,
          ),
        ),
        fields: 'template',
      });
      // The claim made before the Service was refused is gone again.
      const leftovers = await cluster.get<{ items: unknown[] }>(
        limited,
        'deployments,services,pvc',
        undefined,
        'app.kubernetes.io/managed-by=platform-agent',
      );
      expect(leftovers.items).toEqual([]);
      expect((await agentRequest(quotaAgent, 'GET', '/deployments')).body).toEqual([]);
      await cluster.kubectl(['-n', limited, 'delete', 'resourcequota', 'no-services']);
    }, 120_000);

    test('pods a quota refuses: the service is failed, with the reason', async () => {
      await cluster.apply(limited, [
        { apiVersion: 'v1', kind: 'ResourceQuota', metadata: { name: 'no-pods' }, spec: { hard: { pods: '0' } } },
      ]);
      await waitFor('the quota counted', async () => {
        const quota = await cluster.get<{ status?: { used?: Record<string, string> } }>(limited, 'resourcequota', 'no-pods');
        return quota.status?.used ? true : undefined;
      });
      const res = await agentRequest<DeploymentBody>(quotaAgent, 'POST', '/deployments', {
        body: { template: { name: 'p', images: [{ name: 'web', source: TEST_IMAGE, command: 'sleep 3600' }] } },
      });
      expect(res.status).toBe(200);
      const [service] = await waitForServices(quotaAgent, res.body.id, (s) => s[0].actualState === 'failed', 'failed');
      expect(service).toEqual({
        id: res.body.service_ids[0],
        actualState: 'failed',
        reason: expect.stringMatching(
          /^FailedCreate: pods "platform-d\d+-[0-9a-f]{6}-web-[0-9a-z-]+" is forbidden: exceeded quota: no-pods, requested: pods=1, used: pods=0, limited: pods=0$/,
        ),
      });
      expect((await agentRequest(quotaAgent, 'DELETE', `/deployments/${res.body.id}`)).status).toBe(204);
    }, 120_000);
  });
});
