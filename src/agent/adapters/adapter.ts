import type { DeployTemplate } from '../descriptor';

/** One service's state as interface B reports it (`status.services[]`). */
export interface ServiceStatus {
  id: string;
  actualState: string;
  /**
   * Why the service is in that state, when the orchestrator says (`ImagePullBackOff: Back-off
   * pulling image "x"`): an extension of interface B, absent when there is nothing to say.
   */
  reason?: string;
}

/**
 * What the agent needs from an orchestrator. `key` names one generation of one deployment
 * (a redeploy makes a new key), so the new objects can exist beside the old ones until the old
 * ones are removed. `create` cleans up after itself when it fails part-way; `remove` treats
 * objects that are already gone as removed. Failures are errors from the catalogue:
 * UpstreamError (502) when the orchestrator fails or cannot be reached, UpstreamTimeoutError
 * (504) when it is too slow, ValidationError (422) when it rejects the template.
 */
export interface Adapter {
  readonly type: 'docker' | 'swarm' | 'http' | 'kubernetes';
  metadata(): Promise<{ version: string; type: string }>;
  create(key: string, template: DeployTemplate): Promise<string[]>;
  status(ids: string[]): Promise<ServiceStatus[]>;
  remove(key: string, ids: string[]): Promise<void>;
  /**
   * Optional: put a new generation in place of an old one, removing the old one only once the new
   * one started (the docker adapter also swaps host ports the two share on one engine). Must
   * leave the old generation running when it fails. Without it, the agent calls `create` for the
   * new generation and then `remove` for the old one.
   */
  replace?(old: { key: string; ids: string[] }, key: string, template: DeployTemplate): Promise<string[]>;
  close(): Promise<void>;
}
