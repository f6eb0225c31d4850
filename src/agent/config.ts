import { hostname } from 'node:os';
import path from 'node:path';
import { z } from 'zod';

// The agent's only reader of process.env: every problem is reported at once.
const schema = z
  .object({
    AGENT_PORT: z.coerce.number().int().min(0).max(65535).default(3001),
    AGENT_HOST: z.string().min(1).default('127.0.0.1'),
    AGENT_DATA_DIR: z.string().min(1).default('./.agent-data'),
    AGENT_PUBLIC_URL: z
      .string()
      .url()
      .refine((value) => value.startsWith('https://'), 'must be an https:// URL')
      .optional(),
    AGENT_ADAPTER: z.enum(['docker', 'swarm', 'http', 'kubernetes']).default('docker'),
    ADAPTER_URL: z
      .string()
      .url()
      .refine((value) => /^https?:\/\//.test(value), 'must be an http:// or https:// URL')
      .optional(),
    ADAPTER_TIMEOUT_MS: z.coerce.number().int().positive().default(30_000),
    DOCKER_HOST: z
      .string()
      .regex(/^(unix|tcp):\/\//, 'must be unix:///path or tcp://host:port')
      .optional(),
    DATABASE_URL: z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
    AGENT_SWARM_PUBLISH_MODE: z.enum(['ingress', 'host']).default('ingress'),
    AGENT_SWARM_ENDPOINT_MODE: z.enum(['vip', 'dnsrr']).default('vip'),
    AGENT_STOP_TIMEOUT_SECONDS: z.coerce.number().int().min(0).max(600).default(10),
    AGENT_DOCKER_CONFIG: z.string().min(1).optional(),
    AGENT_PROTOCOL: z.enum(['extended', 'original']).default('extended'),
    AGENT_KUBECONFIG: z.string().min(1).optional(),
    KUBECONFIG: z.string().optional(),
    /** Set by the kubelet in every pod: the agent runs in the cluster it deploys to. */
    KUBERNETES_SERVICE_HOST: z.string().optional(),
    AGENT_KUBERNETES_CONTEXT: z.string().min(1).optional(),
    AGENT_KUBERNETES_NAMESPACE: z
      .string()
      .regex(/^[a-z0-9]([-a-z0-9]{0,61}[a-z0-9])?$/, 'must be a namespace name (lower-case letters, digits and -, at most 63)')
      .optional(),
    AGENT_KUBERNETES_ROLLOUT_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(90),
    AGENT_KUBERNETES_DELETE_TIMEOUT_SECONDS: z.coerce.number().int().min(1).max(3600).default(90),
    AGENT_KUBERNETES_IMAGE_PULL_POLICY: z.enum(['Always', 'IfNotPresent', 'Never']).optional(),
    AGENT_KUBERNETES_IMAGE_PULL_SECRETS: z
      .string()
      .regex(/^[a-z0-9.-]+(,[a-z0-9.-]+)*$/, 'must be secret names separated by commas')
      .optional(),
    AGENT_KUBERNETES_ALLOW_HOST_PATH: z.enum(['true', 'false']).default('false'),
    AGENT_KUBERNETES_VOLUME_SIZE: z
      .string()
      .regex(/^\d+(\.\d+)?(Ki|Mi|Gi|Ti|Pi|Ei|k|M|G|T|P|E)?$/, 'must be a Kubernetes quantity (1Gi, 500Mi)')
      .default('1Gi'),
    AGENT_KUBERNETES_STORAGE_CLASS: z.string().min(1).optional(),
    LOG_LEVEL: z.enum(['fatal', 'error', 'warn', 'info', 'debug', 'trace', 'silent']).default('info'),
    AGENT_METRICS_PORT: z.preprocess((v) => (v === '' ? undefined : v), z.coerce.number().int().min(0).max(65535).optional()),
    AGENT_METRICS_HOST: z.string().min(1).default('127.0.0.1'),
    OTEL_EXPORTER_OTLP_ENDPOINT: z.preprocess(
      (v) => (v === '' ? undefined : v),
      z
        .string()
        .url()
        .refine((v) => /^https?:\/\//.test(v), 'must be an http:// or https:// URL')
        .optional(),
    ),
  })
  .superRefine((env, ctx) => {
    if (env.AGENT_ADAPTER === 'http' && !env.ADAPTER_URL) {
      ctx.addIssue({ code: 'custom', path: ['ADAPTER_URL'], message: 'is required when AGENT_ADAPTER=http' });
    }
    if (env.AGENT_ADAPTER === 'kubernetes' && !env.AGENT_KUBECONFIG && !env.KUBECONFIG && !env.KUBERNETES_SERVICE_HOST) {
      ctx.addIssue({
        code: 'custom',
        path: ['AGENT_KUBECONFIG'],
        message: 'is required when AGENT_ADAPTER=kubernetes outside a pod (or KUBECONFIG; in a pod, its service account is used)',
      });
    }
  });

export type AdapterType = 'docker' | 'swarm' | 'http' | 'kubernetes';

export interface KubernetesConfig {
  /** A kubeconfig file (or several, joined as in KUBECONFIG); none: the pod's service account. */
  kubeconfig?: string;
  context?: string;
  /** None: the kubeconfig context's namespace (in a pod, its own), else `default`. */
  namespace?: string;
  /** How long a redeploy waits for its rollout before undoing it. */
  rolloutTimeoutSec: number;
  deleteTimeoutSec: number;
  imagePullPolicy?: 'Always' | 'IfNotPresent' | 'Never';
  imagePullSecrets: string[];
  allowHostPath: boolean;
  volumeSize: string;
  storageClass?: string;
}

export interface AgentConfig {
  port: number;
  host: string;
  dataDir: string;
  /** The endpoint written into the token: what the main service connects to. */
  publicUrl: string;
  adapter: AdapterType;
  adapterUrl?: string;
  adapterTimeoutMs: number;
  dockerHost: string;
  databaseUrl?: string;
  swarmPublishMode: 'ingress' | 'host';
  swarmEndpointMode: 'vip' | 'dnsrr';
  stopTimeoutSec: number;
  /** `docker login`'s config file, whose `auths` the docker adapter pulls with. */
  dockerConfig?: string;
  /** `original`: announce none of interface B's extensions (a main service then uses the spec's calls only). */
  protocol: 'extended' | 'original';
  kubernetes: KubernetesConfig;
  logLevel: string;
  /** Plain-HTTP listener for /metrics: open on a private address, the agent's Basic auth elsewhere. */
  metricsPort?: number;
  metricsHost: string;
}

export class AgentConfigError extends Error {
  constructor(readonly problems: string[]) {
    super(`invalid agent configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
  }
}

export function parseAgentConfig(env: NodeJS.ProcessEnv = process.env): AgentConfig {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new AgentConfigError(parsed.error.issues.map((issue) => `${issue.path.join('.')}: ${issue.message}`));
  }
  const e = parsed.data;
  return {
    port: e.AGENT_PORT,
    host: e.AGENT_HOST,
    dataDir: path.resolve(e.AGENT_DATA_DIR),
    publicUrl: (e.AGENT_PUBLIC_URL ?? `https://${publicHost(e.AGENT_HOST)}:${e.AGENT_PORT}`).replace(/\/+$/, ''),
    adapter: e.AGENT_ADAPTER,
    adapterUrl: e.ADAPTER_URL?.replace(/\/+$/, ''),
    adapterTimeoutMs: e.ADAPTER_TIMEOUT_MS,
    dockerHost: e.DOCKER_HOST ?? 'unix:///var/run/docker.sock',
    databaseUrl: e.DATABASE_URL,
    swarmPublishMode: e.AGENT_SWARM_PUBLISH_MODE,
    swarmEndpointMode: e.AGENT_SWARM_ENDPOINT_MODE,
    stopTimeoutSec: e.AGENT_STOP_TIMEOUT_SECONDS,
    dockerConfig: e.AGENT_DOCKER_CONFIG ? path.resolve(e.AGENT_DOCKER_CONFIG) : undefined,
    protocol: e.AGENT_PROTOCOL,
    kubernetes: {
      // AGENT_KUBECONFIG first: KUBECONFIG may be the operator's own, set for kubectl.
      kubeconfig: e.AGENT_KUBECONFIG ?? (e.KUBECONFIG || undefined),
      context: e.AGENT_KUBERNETES_CONTEXT,
      namespace: e.AGENT_KUBERNETES_NAMESPACE,
      rolloutTimeoutSec: e.AGENT_KUBERNETES_ROLLOUT_TIMEOUT_SECONDS,
      deleteTimeoutSec: e.AGENT_KUBERNETES_DELETE_TIMEOUT_SECONDS,
      imagePullPolicy: e.AGENT_KUBERNETES_IMAGE_PULL_POLICY,
      imagePullSecrets: e.AGENT_KUBERNETES_IMAGE_PULL_SECRETS?.split(',') ?? [],
      allowHostPath: e.AGENT_KUBERNETES_ALLOW_HOST_PATH === 'true',
      volumeSize: e.AGENT_KUBERNETES_VOLUME_SIZE,
      storageClass: e.AGENT_KUBERNETES_STORAGE_CLASS,
    },
    logLevel: e.LOG_LEVEL,
    metricsPort: e.AGENT_METRICS_PORT,
    metricsHost: e.AGENT_METRICS_HOST,
  };
}

/** A wildcard bind address is no address a client can use: fall back to the machine's name. */
function publicHost(host: string): string {
  if (host === '0.0.0.0' || host === '::') return hostname();
  return host.includes(':') ? `[${host}]` : host;
}
