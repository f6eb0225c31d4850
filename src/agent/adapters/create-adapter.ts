import type { Logger } from '../../logger';
import type { AgentConfig } from '../config';
import type { Adapter } from './adapter';
import { createHttpAdapter } from './http-adapter';

/** The adapter AGENT_ADAPTER names. */
export function createAdapter(config: AgentConfig, log: Logger): Adapter {
  switch (config.adapter) {
    case 'http':
      return createHttpAdapter({ url: config.adapterUrl!, timeoutMs: config.adapterTimeoutMs });
    default:
      throw new Error(`adapter ${config.adapter} is not available yet (${log.level})`);
  }
}
