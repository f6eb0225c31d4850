import type { Logger } from '../../logger';
import type { AgentConfig } from '../config';
import type { Adapter } from './adapter';
import { createDockerAdapter } from './docker-adapter';
import { createHttpAdapter } from './http-adapter';
import { createSwarmAdapter } from './swarm-adapter';

/** The adapter AGENT_ADAPTER names. */
export function createAdapter(config: AgentConfig, log: Logger): Adapter {
  switch (config.adapter) {
    case 'http':
      return createHttpAdapter({ url: config.adapterUrl!, timeoutMs: config.adapterTimeoutMs });
    case 'docker':
      return createDockerAdapter({ dockerHost: config.dockerHost, stopTimeoutSec: config.stopTimeoutSec, log });
    case 'swarm':
      return createSwarmAdapter({
        dockerHost: config.dockerHost,
        publishMode: config.swarmPublishMode,
        endpointMode: config.swarmEndpointMode,
        stopTimeoutSec: config.stopTimeoutSec,
        log,
      });
  }
}
