import type {
  V1Container,
  V1Deployment,
  V1EnvVar,
  V1HostAlias,
  V1PersistentVolumeClaim,
  V1Secret,
  V1Service,
  V1ServicePort,
  V1Volume,
  V1VolumeMount,
} from '@kubernetes/client-node';
import { linkVariables } from '../../../parts/link-env';
import { mergeEnvironment } from '../../../engines/container-spec';
import { shellWords } from '../../../engines/shell-words';
import { ValidationError } from '../../../errors';
import { Problems } from '../../../problems';
import type { DeployTemplate, DeployImage } from '../../descriptor';
import { ANNOTATION_IMAGE, LABEL_KEY, LABEL_SERVICE, dnsPart, objectName, ownerLabels } from './names';

export interface MappingOptions {
  namespace: string;
  /** None: the cluster's default (Always for `:latest` and untagged images, else IfNotPresent). */
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  imagePullSecrets: readonly string[];
  allowHostPath: boolean;
  volumeSize: string;
  storageClass?: string;
  stopTimeoutSec: number;
  rolloutTimeoutSec: number;
}

interface PortPlan {
  port: number;
  protocol: 'TCP' | 'UDP';
  nodePort?: number;
  /** For the cluster's refusal of a node port. */
  field?: string;
}

export interface ImagePlan {
  index: number;
  image: DeployImage;
  /** The service id interface B answers. */
  name: string;
  service: string;
  /** Absent without ports or expose: there is nothing to route to. */
  serviceObject?: V1Service;
  nodePortFields: (string | undefined)[];
  claims: V1PersistentVolumeClaim[];
  exposed: { port: number; proto: string }[];
  deployment(clusterIps: ReadonlyMap<string, string>): V1Deployment;
}

export interface DeploymentPlan {
  images: ImagePlan[];
  /** The agent's logins for the template's registries, when it has any. */
  pullSecret?: V1Secret;
}

/** Kubernetes 1.20's IsEnvVarName. */
const ENV_NAME = /^[-._a-zA-Z][-._a-zA-Z0-9]*$/;
/** hostAliases take DNS-1123 subdomains. */
const HOST_NAME = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?(\.[a-z0-9]([-a-z0-9]*[a-z0-9])?)*$/;
const INVALID = { prefix: 'The template cannot run on Kubernetes: ', separator: ' ', limit: 5, suffix: '.' };

/**
 * Checks what Kubernetes would refuse first, so one 422 names it all before anything is made.
 * Pure: the adapter creates the Services, whose cluster IPs {@link ImagePlan.deployment} needs for links.
 */
export function planDeployment(
  template: DeployTemplate,
  deployment: string,
  key: string,
  mappingOptions: MappingOptions,
  pullSecret?: V1Secret,
): DeploymentPlan {
  const options = pullSecret
    ? { ...mappingOptions, imagePullSecrets: [...mappingOptions.imagePullSecrets, pullSecret.metadata!.name!] }
    : mappingOptions;
  const problems = new Problems();
  const owner = ownerLabels(deployment, key);
  const partials = template.images.map((image, index) => planImage(template, image, index, deployment, owner, options, problems));
  problems.throwIfAny(INVALID);
  const byName = new Map(partials.map((plan) => [plan.image.name, plan]));
  const images = partials.map((plan): ImagePlan => ({
    ...plan,
    deployment: (clusterIps) => deploymentObject(template, plan, byName, clusterIps, owner, options),
  }));
  return { images, pullSecret };
}

type PartialPlan = Omit<ImagePlan, 'deployment'> & { args?: string[]; volumes: V1Volume[]; mounts: V1VolumeMount[] };

function planImage(
  template: DeployTemplate,
  image: DeployImage,
  index: number,
  deployment: string,
  owner: Record<string, string>,
  options: MappingOptions,
  problems: Problems,
): PartialPlan {
  const at = `template.images[${index}]`;
  const name = objectName(deployment, image.name);
  const service = dnsPart(image.name, 63);
  const labels = { ...owner, [LABEL_SERVICE]: service };
  const annotations = { [ANNOTATION_IMAGE]: image.name };
  if (!image.source?.trim()) problems.add(`${at}.source`, 'is required to run the image (the image to run)');

  let args: string[] | undefined;
  if (image.command?.trim()) {
    try {
      args = shellWords(image.command);
    } catch (error) {
      if (!(error instanceof ValidationError)) throw error;
      problems.add(`${at}.command`, error.message.replace(/^command /, ''));
    }
  }
  (image.environment ?? []).forEach((env, j) => {
    if (!ENV_NAME.test(env.variable)) {
      problems.add(`${at}.environment[${j}].variable`, `"${env.variable}" is not a name Kubernetes accepts for a variable`);
    }
  });
  const restart = image.restart_policy?.split(':')[0];
  if (restart === 'no' || restart === 'on-failure') {
    problems.add(
      `${at}.restart_policy`,
      `"${image.restart_policy}" cannot be kept: a Deployment always restarts its pods (use always or unless-stopped, or leave it out)`,
    );
  }
  (image.links ?? []).forEach((link, j) => {
    if (!ENV_NAME.test(`${link.alias.toUpperCase().replace(/-/g, '_')}_NAME`)) {
      problems.add(`${at}.links[${j}].alias`, `"${link.alias}" cannot name the link's variables (${link.alias}_NAME…)`);
    }
  });

  const ports = servicePorts(image, at, problems);
  let serviceObject: V1Service | undefined;
  const nodePortFields = ports.map((port) => port.field);
  if (ports.length > 0) {
    const nodePort = ports.some((port) => port.nodePort !== undefined);
    serviceObject = {
      apiVersion: 'v1',
      kind: 'Service',
      metadata: { name, namespace: options.namespace, labels, annotations },
      spec: {
        type: nodePort ? 'NodePort' : 'ClusterIP',
        selector: { ...selectorLabels(owner), [LABEL_SERVICE]: service },
        ports: ports.map((port): V1ServicePort => ({
          name: `${port.protocol.toLowerCase()}-${port.port}`,
          port: port.port,
          targetPort: port.port,
          protocol: port.protocol,
          ...(port.nodePort === undefined ? {} : { nodePort: port.nodePort }),
        })),
      },
    };
  }

  const claims: V1PersistentVolumeClaim[] = [];
  const volumes: V1Volume[] = [];
  const mounts: V1VolumeMount[] = [];
  (image.volumes ?? []).forEach((volume, j) => {
    const volumeName = `v${j}`;
    mounts.push({ name: volumeName, mountPath: volume.container_path });
    const hostPath = volume.host_path?.trim();
    if (hostPath) {
      if (!options.allowHostPath) {
        problems.add(
          `${at}.volumes[${j}].host_path`,
          `is a path on the node (${hostPath}), which the agent refuses unless AGENT_KUBERNETES_ALLOW_HOST_PATH=true`,
        );
      } else if (!hostPath.startsWith('/')) {
        problems.add(`${at}.volumes[${j}].host_path`, `must be an absolute path on the node (${hostPath})`);
      }
      // DirectoryOrCreate: as the engine makes a missing bind source.
      volumes.push({ name: volumeName, hostPath: { path: hostPath, type: 'DirectoryOrCreate' } });
      return;
    }
    const claimName = objectName(deployment, image.name, `v${j}`);
    claims.push({
      apiVersion: 'v1',
      kind: 'PersistentVolumeClaim',
      metadata: {
        name: claimName,
        namespace: options.namespace,
        labels,
        annotations: { ...annotations, [ANNOTATION_PATH]: volume.container_path },
      },
      spec: {
        accessModes: ['ReadWriteOnce'],
        resources: { requests: { storage: options.volumeSize } },
        ...(options.storageClass ? { storageClassName: options.storageClass } : {}),
      },
    });
    volumes.push({ name: volumeName, persistentVolumeClaim: { claimName } });
  });

  return {
    index,
    image,
    name,
    service,
    serviceObject,
    nodePortFields,
    claims,
    exposed: ports.map((port) => ({ port: port.port, proto: port.protocol.toLowerCase() })),
    args,
    volumes,
    mounts,
  };
}

const ANNOTATION_PATH = 'platform.agent/container-path';

function servicePorts(image: DeployImage, at: string, problems: Problems): PortPlan[] {
  const byKey = new Map<string, PortPlan>();
  (image.ports ?? []).forEach((port, j) => {
    const protocol = port.proto === 'UDP' ? 'UDP' : 'TCP';
    const key = `${port.container_port}/${protocol}`;
    const nodePort = port.host_port ? port.host_port : undefined;
    const field = nodePort === undefined ? undefined : `${at}.ports[${j}].host_port`;
    const seen = byKey.get(key);
    if (!seen) {
      byKey.set(key, { port: port.container_port, protocol, nodePort, field });
    } else if (nodePort !== undefined && seen.nodePort !== undefined && seen.nodePort !== nodePort) {
      problems.add(field!, `publishes container port ${key} a second time (a Service publishes a port once)`);
    } else if (nodePort !== undefined) {
      Object.assign(seen, { nodePort, field });
    }
  });
  (image.expose ?? []).forEach((entry, j) => {
    const match = /^(\d{1,5})(?:\/(tcp|udp))?$/i.exec(String(entry).trim());
    const port = match ? Number(match[1]) : 0;
    if (!match || port < 1 || port > 65535) {
      problems.add(`${at}.expose[${j}]`, 'must be a port number (8080, 8080/tcp or 8080/udp)');
      return;
    }
    const protocol = match[2]?.toUpperCase() === 'UDP' ? 'UDP' : 'TCP';
    const key = `${port}/${protocol}`;
    if (!byKey.has(key)) byKey.set(key, { port, protocol });
  });
  return [...byKey.values()];
}

/** Without the generation key: a Deployment's selector cannot change. */
function selectorLabels(owner: Record<string, string>): Record<string, string> {
  const { [LABEL_KEY]: _key, ...fixed } = owner;
  return fixed;
}

function deploymentObject(
  template: DeployTemplate,
  plan: PartialPlan,
  byName: ReadonlyMap<string, PartialPlan>,
  clusterIps: ReadonlyMap<string, string>,
  owner: Record<string, string>,
  options: MappingOptions,
): V1Deployment {
  const { image } = plan;
  const labels = { ...owner, [LABEL_SERVICE]: plan.service };
  const annotations = { [ANNOTATION_IMAGE]: image.name };

  // Docker's legacy link variables with the Service's address; the template's own variables win.
  const linkEnv = (image.links ?? []).flatMap((link) => {
    const target = byName.get(link.service)!;
    const targetEnv = (target.image.environment ?? []).map(({ variable, value }) => `${variable}=${value}`);
    return linkVariables(link.alias, plan.name, target.exposed, targetEnv, clusterIps.get(link.service) ?? '');
  });
  const own = (image.environment ?? []).map(({ variable, value }) => `${variable}=${value}`);
  const env = mergeEnvironment(linkEnv, own).map((entry): V1EnvVar => {
    const eq = entry.indexOf('=');
    return { name: entry.slice(0, eq), value: entry.slice(eq + 1) };
  });

  const volumes = [...plan.volumes];
  const mounts = [...plan.mounts];
  for (const from of image.volumes_from ?? []) {
    // As the engine's volumes_from: the same paths, but a path this image mounts itself keeps its own.
    const source = byName.get(from.service)!;
    source.mounts.forEach((mount, j) => {
      if (mounts.some((own) => own.mountPath === mount.mountPath)) return;
      const name = `from-${source.service}-${j}`.slice(0, 63).replace(/-+$/, '');
      mounts.push({ name, mountPath: mount.mountPath });
      volumes.push({ ...source.volumes[j], name });
    });
  }

  const container: V1Container = {
    name: plan.service,
    image: image.source!.trim(),
    ...(options.imagePullPolicy ? { imagePullPolicy: options.imagePullPolicy } : {}),
    ...(plan.args ? { args: plan.args } : {}),
    env,
    ports: plan.exposed.map((port) => ({ containerPort: port.port, protocol: port.proto.toUpperCase() })),
    volumeMounts: mounts,
    ...containerResources(image),
  };

  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { name: plan.name, namespace: options.namespace, labels, annotations },
    spec: {
      replicas: image.deployment?.count ?? 1,
      selector: { matchLabels: { ...selectorLabels(owner), [LABEL_SERVICE]: plan.service } },
      // maxUnavailable 0: a failed rollout, once undone, leaves the previous version serving as it was.
      strategy: { type: 'RollingUpdate', rollingUpdate: { maxUnavailable: 0, maxSurge: '25%' } },
      progressDeadlineSeconds: options.rolloutTimeoutSec,
      revisionHistoryLimit: 3,
      template: {
        metadata: { labels, annotations },
        spec: {
          containers: [container],
          volumes,
          hostAliases: hostAliases(template, byName, clusterIps),
          imagePullSecrets: options.imagePullSecrets.map((name) => ({ name })),
          // The template's environment, as on Docker: not one variable per Service of the namespace.
          enableServiceLinks: false,
          terminationGracePeriodSeconds: options.stopTimeoutSec,
          // planImage refused the policies a Deployment cannot keep; always and unless-stopped are this.
          restartPolicy: 'Always',
        },
      },
    },
  };
}

/**
 * Through /etc/hosts, as names resolve on the docker adapter's network: no cluster DNS needed,
 * no clash with another deployment's names. Names that are no host names (`My Web`) are left out.
 */
function hostAliases(
  template: DeployTemplate,
  byName: ReadonlyMap<string, PartialPlan>,
  clusterIps: ReadonlyMap<string, string>,
): V1HostAlias[] {
  const aliases: V1HostAlias[] = [];
  for (const image of template.images) {
    const ip = clusterIps.get(image.name);
    if (!ip || !byName.get(image.name)?.serviceObject) continue;
    const names = new Set([image.name]);
    for (const other of template.images) for (const link of other.links ?? []) if (link.service === image.name) names.add(link.alias);
    const hostnames = [...names].map((name) => name.toLowerCase()).filter((name) => name.length <= 253 && HOST_NAME.test(name));
    if (hostnames.length > 0) aliases.push({ ip, hostnames: [...new Set(hostnames)] });
  }
  return aliases;
}

/** Seam: the descriptor carries no resources (requests, limits) yet. */
function containerResources(_image: DeployImage): Pick<V1Container, 'resources'> {
  return {};
}
