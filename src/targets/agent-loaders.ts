import DataLoader from 'dataloader';
import { NotFoundError } from '../errors';
import type { AgentClient, RemoteDeployment, RemoteDeploymentStatus, RemoteDeploymentWithStatus, AgentTarget } from './agent-client';

export interface AgentLoaders {
  /** GET /deployments, one request per target. */
  deployments: DataLoader<string, RemoteDeployment[]>;
  /**
   * GET /deployments?include=status, one request per target: primes `deployment` with each
   * status the agent included, so a query that wants them makes no second round.
   */
  deploymentsWithStatus: DataLoader<string, RemoteDeploymentWithStatus[]>;
  /** GET /deployments/{id}, one request per [target, deployment]. */
  deployment: DataLoader<readonly [string, string], RemoteDeploymentStatus, string>;
}

type TargetLookup = Iterable<AgentTarget> | ((id: string) => AgentTarget | undefined | Promise<AgentTarget | undefined>);

/**
 * Per-request loaders over the agent client: keys are deduplicated and every key's request is
 * made at once, so a query that touches N targets makes N requests in parallel. A failed key
 * yields its Error; the other keys still resolve.
 *
 * Each key is its own HTTP request, so batching buys nothing, and a batch resolves all its keys
 * together: every target's status request waited for the slowest target's list (bench scenario
 * 2). Unbatched, each key settles when its own agent answers.
 */
export function createAgentLoaders(client: AgentClient, targets: TargetLookup): AgentLoaders {
  const lookup = toLookup(targets);
  const resolveTarget = async (id: string): Promise<AgentTarget> => {
    const target = await lookup(id);
    if (!target) throw NotFoundError.of('deployment target', id);
    return target;
  };
  const settle = <K, V>(keys: readonly K[], load: (key: K) => Promise<V>): Promise<(V | Error)[]> =>
    Promise.all(keys.map((key) => load(key).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))))));

  const deployment = new DataLoader<readonly [string, string], RemoteDeploymentStatus, string>(
    (keys) => settle(keys, async ([targetId, deploymentId]) => client.getDeployment(await resolveTarget(targetId), deploymentId)),
    { batch: false, cacheKeyFn: ([targetId, deploymentId]) => `${targetId}/${deploymentId}` },
  );
  const withStatus = async (id: string): Promise<RemoteDeploymentWithStatus[]> => {
    const list = await client.listDeploymentsWithStatus(await resolveTarget(id));
    for (const d of list) {
      if (d.status) deployment.prime([id, String(d.id)], { id: d.id, name: d.name, status: d.status });
    }
    return list;
  };
  return {
    deployments: new DataLoader((ids) => settle(ids, async (id) => client.listDeployments(await resolveTarget(id))), { batch: false }),
    deploymentsWithStatus: new DataLoader((ids) => settle(ids, withStatus), { batch: false }),
    deployment,
  };
}

function toLookup(targets: TargetLookup): (id: string) => AgentTarget | undefined | Promise<AgentTarget | undefined> {
  if (typeof targets === 'function') return targets;
  const byId = new Map<string, AgentTarget>();
  for (const target of targets) byId.set(String(target.id), target);
  return (id) => byId.get(String(id));
}
