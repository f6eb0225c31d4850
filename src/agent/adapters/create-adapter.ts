import type { Logger } from '../../logger';
import type { AgentConfig } from '../config';
import type { Adapter } from './adapter';
import { createDockerAdapter } from './docker-adapter';
import { createHttpAdapter } from './http-adapter';
import { createSwarmAdapter } from './swarm-adapter';
import { dockerConfigCredentials } from '../../engines/docker-config-auth';

export function createAdapter(config: AgentConfig, log: Logger): Adapter {
  switch (config.adapter) {
    case 'http':
      return createHttpAdapter({ url: config.adapterUrl!, timeoutMs: config.adapterTimeoutMs });
    case 'docker':
      return createDockerAdapter({
        dockerHost: config.dockerHost,
        stopTimeoutSec: config.stopTimeoutSec,
        credentials: config.dockerConfig ? dockerConfigCredentials(config.dockerConfig) : undefined,
        log,
      });
    case 'swarm':
      return createSwarmAdapter({
        dockerHost: config.dockerHost,
        publishMode: config.swarmPublishMode,
        endpointMode: config.swarmEndpointMode,
        stopTimeoutSec: config.stopTimeoutSec,
        log,
      });
    case 'kubernetes': {
      // Loaded only here: the Kubernetes client is large (0.4 s and 30 MB to load).
      // eslint-disable-next-line @typescript-eslint/no-require-imports
      const { createKubernetesAdapter } = require('./kubernetes/kubernetes-adapter') as typeof import('./kubernetes/kubernetes-adapter');
      const { kubernetes } = config;
      return createKubernetesAdapter({
        cluster: {
          kubeconfig: kubernetes.kubeconfig,
          context: kubernetes.context,
          namespace: kubernetes.namespace,
          timeoutMs: config.adapterTimeoutMs,
        },
        imagePullPolicy: kubernetes.imagePullPolicy,
        imagePullSecrets: kubernetes.imagePullSecrets,
        allowHostPath: kubernetes.allowHostPath,
        volumeSize: kubernetes.volumeSize,
        storageClass: kubernetes.storageClass,
        stopTimeoutSec: config.stopTimeoutSec,
        rolloutTimeoutSec: kubernetes.rolloutTimeoutSec,
        deleteTimeoutSec: kubernetes.deleteTimeoutSec,
        credentials: config.dockerConfig ? dockerConfigCredentials(config.dockerConfig) : undefined,
        log,
      });
    }
  }
}
