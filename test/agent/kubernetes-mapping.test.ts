import { createHash } from 'node:crypto';
import { expect } from '@jest/globals';
import { ApiException } from '@kubernetes/client-node';
import { parseAgentConfig } from '../../src/agent/config';
import { parseDescriptor } from '../../src/agent/descriptor';
import { nodePortError } from '../../src/agent/adapters/kubernetes/cluster-objects';
import { planDeployment, type MappingOptions } from '../../src/agent/adapters/kubernetes/mapping';
import { dnsPart, objectName } from '../../src/agent/adapters/kubernetes/names';
import { ValidationError } from '../../src/errors';

/** The pure half of the kubernetes adapter: a template's objects, before any cluster sees them. */
const options: MappingOptions = {
  namespace: 'apps',
  imagePullPolicy: 'IfNotPresent',
  imagePullSecrets: ['registry-login'],
  allowHostPath: false,
  volumeSize: '1Gi',
  stopTimeoutSec: 10,
  rolloutTimeoutSec: 90,
};

const owner = {
  'app.kubernetes.io/managed-by': 'platform-agent',
  'platform.agent/deployment': 'd7-abc123',
  'platform.agent/key': 'd7-def456',
};

function problem(work: () => unknown): { message: string; fields: string[] } {
  try {
    work();
  } catch (error) {
    if (error instanceof ValidationError) return { message: error.message, fields: error.fields };
    throw error;
  }
  throw new Error('no ValidationError');
}

describe('kubernetes mapping', () => {
  test('a template becomes a Deployment per image, a Service for its ports, a claim per named volume; links resolve through hostAliases', () => {
    const template = parseDescriptor({
      template: {
        name: 'shop',
        images: [
          {
            name: 'web',
            source: 'shop/web:2',
            command: `sh -c 'echo "$GREETING"; exec httpd -f'`,
            environment: [{ variable: 'GREETING', value: 'hello' }],
            ports: [
              { container_port: 8080, host_port: 30080 },
              { container_port: 9090, proto: 'udp' },
            ],
            links: [{ service: 'db', alias: 'database' }],
            volumes: [{ container_path: '/cache' }],
            volumes_from: [{ service: 'db' }],
            deployment: { count: 3 },
          },
          {
            name: 'db',
            source: 'postgres:16',
            expose: ['5432'],
            environment: [{ variable: 'POSTGRES_PASSWORD', value: 'secret' }],
            volumes: [{ container_path: '/var/lib/postgresql/data' }],
          },
          { name: 'worker', source: 'shop/worker' },
        ],
      },
    });
    const plan = planDeployment(template, 'd7-abc123', 'd7-def456', options);
    const ips = new Map([
      ['web', '10.0.0.10'],
      ['db', '10.0.0.20'],
    ]);
    const [web, db, worker] = plan.images;

    expect(web.serviceObject).toEqual({
      apiVersion: 'v1',
      kind: 'Service',
      metadata: {
        name: 'platform-d7-abc123-web',
        namespace: 'apps',
        labels: { ...owner, 'platform.agent/service': 'web' },
        annotations: { 'platform.agent/image': 'web' },
      },
      spec: {
        type: 'NodePort',
        selector: {
          'app.kubernetes.io/managed-by': 'platform-agent',
          'platform.agent/deployment': 'd7-abc123',
          'platform.agent/service': 'web',
        },
        ports: [
          { name: 'tcp-8080', port: 8080, targetPort: 8080, protocol: 'TCP', nodePort: 30080 },
          { name: 'udp-9090', port: 9090, targetPort: 9090, protocol: 'UDP' },
        ],
      },
    });
    expect(web.nodePortFields).toEqual(['template.images[0].ports[0].host_port', undefined]);
    expect(db.serviceObject?.spec?.type).toBe('ClusterIP');
    expect(db.serviceObject?.spec?.ports).toEqual([{ name: 'tcp-5432', port: 5432, targetPort: 5432, protocol: 'TCP' }]);
    // Nothing to route to: no Service.
    expect(worker.serviceObject).toBeUndefined();

    expect(db.claims).toEqual([
      {
        apiVersion: 'v1',
        kind: 'PersistentVolumeClaim',
        metadata: {
          name: 'platform-d7-abc123-db-v0',
          namespace: 'apps',
          labels: { ...owner, 'platform.agent/service': 'db' },
          annotations: { 'platform.agent/image': 'db', 'platform.agent/container-path': '/var/lib/postgresql/data' },
        },
        spec: { accessModes: ['ReadWriteOnce'], resources: { requests: { storage: '1Gi' } } },
      },
    ]);

    expect(web.deployment(ips)).toEqual({
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: {
        name: 'platform-d7-abc123-web',
        namespace: 'apps',
        labels: { ...owner, 'platform.agent/service': 'web' },
        annotations: { 'platform.agent/image': 'web' },
      },
      spec: {
        replicas: 3,
        selector: {
          matchLabels: {
            'app.kubernetes.io/managed-by': 'platform-agent',
            'platform.agent/deployment': 'd7-abc123',
            'platform.agent/service': 'web',
          },
        },
        strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } },
        progressDeadlineSeconds: 90,
        revisionHistoryLimit: 3,
        template: {
          metadata: { labels: { ...owner, 'platform.agent/service': 'web' }, annotations: { 'platform.agent/image': 'web' } },
          spec: {
            containers: [
              {
                name: 'web',
                image: 'shop/web:2',
                imagePullPolicy: 'IfNotPresent',
                // Split as a shell splits it, as the docker and swarm adapters do.
                args: ['sh', '-c', 'echo "$GREETING"; exec httpd -f'],
                env: [
                  { name: 'DATABASE_PORT', value: 'tcp://10.0.0.20:5432' },
                  { name: 'DATABASE_PORT_5432_TCP', value: 'tcp://10.0.0.20:5432' },
                  { name: 'DATABASE_PORT_5432_TCP_ADDR', value: '10.0.0.20' },
                  { name: 'DATABASE_PORT_5432_TCP_PORT', value: '5432' },
                  { name: 'DATABASE_PORT_5432_TCP_PROTO', value: 'tcp' },
                  { name: 'DATABASE_NAME', value: '/platform-d7-abc123-web/database' },
                  { name: 'DATABASE_ENV_POSTGRES_PASSWORD', value: 'secret' },
                  { name: 'GREETING', value: 'hello' },
                ],
                ports: [
                  { containerPort: 8080, protocol: 'TCP' },
                  { containerPort: 9090, protocol: 'UDP' },
                ],
                volumeMounts: [
                  { name: 'v0', mountPath: '/cache' },
                  { name: 'from-db-0', mountPath: '/var/lib/postgresql/data' },
                ],
              },
            ],
            volumes: [
              { name: 'v0', persistentVolumeClaim: { claimName: 'platform-d7-abc123-web-v0' } },
              { name: 'from-db-0', persistentVolumeClaim: { claimName: 'platform-d7-abc123-db-v0' } },
            ],
            hostAliases: [
              { ip: '10.0.0.10', hostnames: ['web'] },
              { ip: '10.0.0.20', hostnames: ['db', 'database'] },
            ],
            imagePullSecrets: [{ name: 'registry-login' }],
            enableServiceLinks: false,
            terminationGracePeriodSeconds: 10,
            restartPolicy: 'Always',
          },
        },
      },
    });
    const workerSpec = worker.deployment(ips).spec!.template.spec!;
    expect(workerSpec.containers[0]).toEqual({
      name: 'worker',
      image: 'shop/worker',
      imagePullPolicy: 'IfNotPresent',
      env: [],
      ports: [],
      volumeMounts: [],
    });
  });

  test("without a pull policy the cluster's default applies; a storage class is named when set", () => {
    const template = parseDescriptor({ template: { images: [{ name: 'a', source: 'x', volumes: [{ container_path: '/d' }] }] } });
    const [image] = planDeployment(template, 'd1-aaaaaa', 'd1-aaaaaa', {
      ...options,
      imagePullPolicy: undefined,
      storageClass: 'fast',
    }).images;
    expect(image.deployment(new Map()).spec!.template.spec!.containers[0].imagePullPolicy).toBeUndefined();
    expect(image.claims[0].spec!.storageClassName).toBe('fast');
  });

  test('a host path is refused unless allowed, and then becomes a hostPath volume', () => {
    const template = parseDescriptor({
      template: { images: [{ name: 'a', source: 'x', volumes: [{ host_path: '/srv/data', container_path: '/data' }] }] },
    });
    expect(problem(() => planDeployment(template, 'd1-aaaaaa', 'd1-aaaaaa', options))).toEqual({
      message:
        'The template cannot run on Kubernetes: template.images[0].volumes[0].host_path is a path on the node (/srv/data), which the agent refuses unless AGENT_KUBERNETES_ALLOW_HOST_PATH=true.',
      fields: ['template.images[0].volumes[0].host_path'],
    });
    const [image] = planDeployment(template, 'd1-aaaaaa', 'd1-aaaaaa', { ...options, allowHostPath: true }).images;
    expect(image.claims).toEqual([]);
    expect(image.deployment(new Map()).spec!.template.spec!.volumes).toEqual([
      { name: 'v0', hostPath: { path: '/srv/data', type: 'DirectoryOrCreate' } },
    ]);
  });

  test("a restart policy: always and unless-stopped are the Deployment's own, no and on-failure a 422 naming it", () => {
    const policies = ['always', 'unless-stopped', undefined].map((restart_policy) => {
      const template = parseDescriptor({ template: { images: [{ name: 'a', source: 'x', restart_policy }] } });
      const [image] = planDeployment(template, 'd1-aaaaaa', 'd1-aaaaaa', options).images;
      return image.deployment(new Map()).spec!.template.spec!.restartPolicy;
    });
    expect(policies).toEqual(['Always', 'Always', 'Always']);
    const template = parseDescriptor({
      template: {
        images: [
          { name: 'a', source: 'x', restart_policy: 'no' },
          { name: 'b', source: 'x', restart_policy: 'on-failure:3' },
        ],
      },
    });
    expect(problem(() => planDeployment(template, 'd1-aaaaaa', 'd1-aaaaaa', options))).toEqual({
      message:
        'The template cannot run on Kubernetes: template.images[0].restart_policy "no" cannot be kept: a Deployment always restarts its pods (use always or unless-stopped, or leave it out); ' +
        'template.images[1].restart_policy "on-failure:3" cannot be kept: a Deployment always restarts its pods (use always or unless-stopped, or leave it out).',
      fields: ['template.images[0].restart_policy', 'template.images[1].restart_policy'],
    });
  });

  test('what Kubernetes would refuse is a 422 naming every member at once', () => {
    const template = parseDescriptor({
      template: {
        images: [
          {
            name: 'a',
            command: 'sh -c "unterminated',
            expose: ['80-90', '70000'],
            environment: [{ variable: 'MY VAR', value: '1' }],
            links: [{ service: 'b', alias: 'b b' }],
          },
          {
            name: 'b',
            source: 'x',
            ports: [
              { container_port: 80, host_port: 30001 },
              { container_port: 80, host_port: 30002 },
            ],
          },
        ],
      },
    });
    expect(problem(() => planDeployment(template, 'd1-aaaaaa', 'd1-aaaaaa', options))).toEqual({
      message:
        'The template cannot run on Kubernetes: template.images[0].source is required to run the image (the image to run); ' +
        'template.images[0].command has an unterminated double quote; ' +
        'template.images[0].environment[0].variable "MY VAR" is not a name Kubernetes accepts for a variable; ' +
        'template.images[0].links[0].alias "b b" cannot name the link\'s variables (b b_NAME…); ' +
        'template.images[0].expose[0] must be a port number (8080, 8080/tcp or 8080/udp) (and 2 more).',
      fields: [
        'template.images[0].source',
        'template.images[0].command',
        'template.images[0].environment[0].variable',
        'template.images[0].links[0].alias',
        'template.images[0].expose[0]',
        'template.images[0].expose[1]',
        'template.images[1].ports[1].host_port',
      ],
    });
  });

  test('names: valid ones are kept, others are cleaned and get a hash of the original; all fit 63 characters', () => {
    expect(dnsPart('web', 63)).toBe('web');
    expect(dnsPart('Web', 63)).toBe(`web-${hash('Web')}`);
    expect(dnsPart('My Web_Server!', 63)).toBe(`my-web-server-${hash('My Web_Server!')}`);
    expect(dnsPart('données', 63)).toBe(`donn-es-${hash('données')}`);
    expect(dnsPart('!!!', 63)).toBe(hash('!!!'));
    const long = 'a'.repeat(80);
    expect(objectName('d12-abcdef', long)).toBe(`platform-d12-abcdef-${'a'.repeat(36)}-${hash(long)}`);
    expect(objectName('d12-abcdef', long)).toHaveLength(63);
    expect(objectName('d12-abcdef', long)).not.toBe(objectName('d12-abcdef', `${long}b`));
  });

  test("a node port the cluster refuses is the template's host port: 422 naming it", () => {
    const template = parseDescriptor({
      template: { images: [{ name: 'a', source: 'x', expose: ['80'], ports: [{ container_port: 8080, host_port: 8080 }] }] },
    });
    const [image] = planDeployment(template, 'd1-aaaaaa', 'd1-aaaaaa', options).images;
    const refusal = new ApiException(
      422,
      'Invalid',
      JSON.stringify({
        kind: 'Status',
        status: 'Failure',
        reason: 'Invalid',
        message:
          'Service "platform-d1-aaaaaa-a" is invalid: spec.ports[0].nodePort: Invalid value: 8080: provided port is not in the valid range',
        details: {
          causes: [
            {
              reason: 'FieldValueInvalid',
              message: 'Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
              field: 'spec.ports[0].nodePort',
            },
          ],
        },
        code: 422,
      }),
      {},
    );
    const error = nodePortError(refusal, image);
    expect(error).toBeInstanceOf(ValidationError);
    expect({ message: error!.message, fields: error!.fields }).toEqual({
      message:
        'The cluster refused the host port of image "a" as a node port: template.images[0].ports[0].host_port: Invalid value: 8080: provided port is not in the valid range. The range of valid ports is 30000-32767',
      fields: ['template.images[0].ports[0].host_port'],
    });
  });

  test('the settings of AGENT_ADAPTER=kubernetes', () => {
    expect(
      parseAgentConfig({
        AGENT_ADAPTER: 'kubernetes',
        KUBECONFIG: '/etc/kube/a:/etc/kube/b',
        AGENT_KUBERNETES_NAMESPACE: 'apps',
        AGENT_KUBERNETES_IMAGE_PULL_SECRETS: 'one,two',
        AGENT_KUBERNETES_ALLOW_HOST_PATH: 'true',
      }).kubernetes,
    ).toEqual({
      kubeconfig: '/etc/kube/a:/etc/kube/b',
      namespace: 'apps',
      rolloutTimeoutSec: 90,
      deleteTimeoutSec: 90,
      imagePullSecrets: ['one', 'two'],
      allowHostPath: true,
      volumeSize: '1Gi',
    });
    // In a pod the service account is used.
    expect(parseAgentConfig({ AGENT_ADAPTER: 'kubernetes', KUBERNETES_SERVICE_HOST: '10.0.0.1' }).kubernetes.kubeconfig).toBeUndefined();
    expect(() => parseAgentConfig({ AGENT_ADAPTER: 'kubernetes', AGENT_KUBERNETES_NAMESPACE: 'Not_A_Name' })).toThrow(
      [
        'invalid agent configuration:',
        '  - AGENT_KUBERNETES_NAMESPACE: must be a namespace name (lower-case letters, digits and -, at most 63)',
        '  - AGENT_KUBECONFIG: is required when AGENT_ADAPTER=kubernetes outside a pod (or KUBECONFIG; in a pod, its service account is used)',
      ].join('\n'),
    );
  });
});

function hash(text: string): string {
  return createHash('sha256').update(text).digest('hex').slice(0, 6);
}
