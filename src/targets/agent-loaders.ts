import DataLoader from 'dataloader';
import { NotFoundError } from '../errors';
import type { AgentClient, RemoteDeployment, RemoteDeploymentStatus, RemoteDeploymentWithStatus, AgentTarget } from './agent-client';

export interface AgentLoaders {
  deployments: DataLoader<string, RemoteDeployment[]>;
  /** Primes `deployment` with each status, so a query that wants them makes no second round. */
  deploymentsWithStatus: DataLoader<string, RemoteDeploymentWithStatus[]>;
  deployment: DataLoader<readonly [string, string], RemoteDeploymentStatus, string>;
}

type TargetLookup = Iterable<AgentTarget> | ((id: string) => AgentTarget | undefined | Promise<AgentTarget | undefined>);

/** Unbatched: each key is its own request, and a batch would make every key wait for the slowest agent. */
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
