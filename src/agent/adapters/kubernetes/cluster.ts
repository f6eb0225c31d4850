import path from 'node:path';
import {
  ApiException,
  AppsV1Api,
  CoreV1Api,
  KubeConfig,
  ServerConfiguration,
  VersionApi,
  createConfiguration,
  type Middleware,
  type RequestContext,
  type ResponseContext,
} from '@kubernetes/client-node';
import { DomainError, UpstreamError, UpstreamTimeoutError, ValidationError } from '../../../errors';
import { AgentConfigError } from '../../config';

/** Each request under a deadline; every failure an error of the catalogue naming the cluster, verb and resource (never a 500). */
export interface Cluster {
  /** The API server's URL, as errors name the cluster. */
  readonly server: string;
  readonly namespace: string;
  readonly core: CoreV1Api;
  readonly apps: AppsV1Api;
  readonly version: VersionApi;
  call<T>(verb: string, resource: string, work: () => Promise<T>): Promise<T>;
}

export interface ClusterOptions {
  /** A kubeconfig file, or several joined by the path delimiter; none: the pod's service account. */
  kubeconfig?: string;
  context?: string;
  namespace?: string;
  timeoutMs: number;
}

export function connectCluster(options: ClusterOptions): Cluster {
  const config = loadKubeConfig(options);
  const current = config.getCurrentCluster();
  if (!current) throw new AgentConfigError(['AGENT_KUBECONFIG: its current context names no cluster']);
  const namespace = options.namespace ?? config.getContextObject(config.getCurrentContext())?.namespace?.trim() ?? 'default';
  // A deadline per request: without one a silent API server would hold a request forever.
  const deadline: Middleware = {
    pre: (context: RequestContext) => {
      context.setSignal(AbortSignal.timeout(options.timeoutMs));
      return Promise.resolve(context);
    },
    post: (context: ResponseContext) => Promise.resolve(context),
  };
  const configuration = createConfiguration({
    baseServer: new ServerConfiguration(current.server, {}),
    authMethods: { default: config },
    promiseMiddleware: [deadline],
  });
  const server = current.server;
  return {
    server,
    namespace,
    core: new CoreV1Api(configuration),
    apps: new AppsV1Api(configuration),
    version: new VersionApi(configuration),
    async call(verb, resource, work) {
      try {
        return await work();
      } catch (error) {
        const translated = clusterError(error, { server, namespace, verb, resource, timeoutMs: options.timeoutMs });
        // Kept as the cause: a 404 is "gone" to some callers, and a refusal's causes name the fields it refused.
        if (translated !== error) translated.cause = error;
        throw translated;
      }
    },
  };
}

function loadKubeConfig(options: ClusterOptions): KubeConfig {
  const config = new KubeConfig();
  try {
    if (options.kubeconfig) {
      const [first, ...more] = options.kubeconfig.split(path.delimiter).filter(Boolean);
      config.loadFromFile(first);
      // As kubectl merges KUBECONFIG's files: the first one's current context counts.
      for (const file of more) {
        const next = new KubeConfig();
        next.loadFromFile(file);
        config.mergeConfig(next, true);
      }
    } else {
      config.loadFromCluster();
    }
    if (options.context) config.setCurrentContext(options.context);
  } catch (error) {
    const setting = options.kubeconfig ? 'AGENT_KUBECONFIG' : 'AGENT_ADAPTER';
    const where = options.kubeconfig ? `cannot load ${options.kubeconfig}` : "cannot load the pod's service account";
    throw new AgentConfigError([`${setting}: ${where}: ${error instanceof Error ? error.message : String(error)}`]);
  }
  return config;
}

interface Action {
  server: string;
  namespace: string;
  verb: string;
  resource: string;
  timeoutMs: number;
}

/** The cluster's answer body (a Status), when it sent one. */
export interface ClusterStatus {
  message?: string;
  reason?: string;
  code?: number;
  details?: { causes?: { field?: string; message?: string; reason?: string }[] };
}

export function statusOf(error: unknown): ClusterStatus | undefined {
  const raw = error instanceof ApiException ? error : (error as { cause?: unknown } | null)?.cause;
  if (!(raw instanceof ApiException)) return undefined;
  const body: unknown = raw.body;
  if (body && typeof body === 'object') return body;
  if (typeof body !== 'string') return undefined;
  try {
    return JSON.parse(body) as ClusterStatus;
  } catch {
    return { message: body.slice(0, 300) };
  }
}

export function statusCode(error: unknown): number | undefined {
  const raw = error instanceof ApiException ? error : (error as { cause?: unknown } | null)?.cause;
  return raw instanceof ApiException ? raw.code : undefined;
}

/**
 * A quota refusal is the template's (422, the cluster's message), an invalid object 422; RBAC's refusal
 * or a failing cluster 502 naming the cluster, verb and resource; no answer in time 504.
 */
export function clusterError(error: unknown, action: Action): DomainError {
  if (error instanceof DomainError) return error;
  const where = `the Kubernetes cluster at ${action.server}`;
  const what = `${action.verb} ${action.resource} in namespace ${action.namespace}`;
  if (error instanceof ApiException) {
    const status = statusOf(error);
    const message = status?.message?.trim() || `HTTP ${error.code}`;
    if (error.code === 403 && /exceeded quota/i.test(message)) {
      return new ValidationError(`The namespace's quota refused to ${what}: ${message}`, ['template']);
    }
    if (error.code === 403) return new UpstreamError(`${capital(where)} forbids the agent to ${what} (RBAC): ${message}`);
    if (error.code === 401) return new UpstreamError(`${capital(where)} refused the agent's credentials (HTTP 401) to ${what}.`);
    if (error.code === 422) return new ValidationError(`${capital(where)} refused to ${what}: ${message}`, ['template']);
    if (error.code === 504) return new UpstreamTimeoutError(`${capital(where)} timed out trying to ${what}: ${message}`);
    return new UpstreamError(`${capital(where)} failed to ${what} (HTTP ${error.code}): ${message}`);
  }
  if (isTimeout(error)) return new UpstreamTimeoutError(`${capital(where)} did not answer within ${action.timeoutMs} ms (${what}).`);
  const code = errorCode(error);
  return new UpstreamError(`${capital(where)} could not be reached to ${what}${code ? ` (${code})` : ''}.`);
}

function isTimeout(error: unknown): boolean {
  const name = (error as { name?: string } | null)?.name;
  const type = (error as { type?: string } | null)?.type;
  return name === 'AbortError' || name === 'TimeoutError' || type === 'aborted' || type === 'request-timeout';
}

function errorCode(error: unknown): string | undefined {
  for (let current = error, depth = 0; current && typeof current === 'object' && depth < 5; depth++) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return undefined;
}

function capital(text: string): string {
  return text.charAt(0).toUpperCase() + text.slice(1);
}
