import type { DeployTemplate } from '../descriptor';

/** One service's state as interface B reports it (`status.services[]`). */
export interface ServiceStatus {
  id: string;
  actualState: string;
  /** The orchestrator's word (`ImagePullBackOff: …`), an extension of interface B. */
  reason?: string;
}

/**
 * `key` names one generation of one deployment, so new objects can exist beside the old. `create` cleans up
 * when it fails part-way; `remove` treats what is gone as removed. Failures: 502 failing, 504 slow, 422 refused.
 */
export interface Adapter {
  readonly type: 'docker' | 'swarm' | 'http' | 'kubernetes';
  metadata(): Promise<{ version: string; type: string }>;
  create(key: string, template: DeployTemplate): Promise<string[]>;
  status(ids: string[]): Promise<ServiceStatus[]>;
  remove(key: string, ids: string[]): Promise<void>;
  /**
   * Removes the old generation only once the new one started, and leaves it running on failure.
   * Without it, the agent calls `create`, then `remove`.
   */
  replace?(old: { key: string; ids: string[] }, key: string, template: DeployTemplate): Promise<string[]>;
  close(): Promise<void>;
}
