import type { Adapter } from './adapters/adapter';
import type { DeploymentService } from './agent-deployment.service';
import type { Route } from './server';
import { agentVersion } from './version';

/** What this agent serves beyond interface B (GET /metadata's `agent.features`). */
export const AGENT_FEATURES = ['redeploy_descriptor'];

/** Interface B, exactly the spec's table, plus an unauthenticated health check. */
export function agentRoutes(deployments: DeploymentService, adapter: Adapter, features: readonly string[] = AGENT_FEATURES): Route[] {
  return [
    { method: 'GET', path: '/healthz', public: true, handle: () => Promise.resolve({ status: 200, body: { status: 'ok' } }) },
    {
      method: 'GET',
      path: '/metadata',
      handle: async () => {
        const { version, type } = await adapter.metadata();
        // `features` is an extension of interface B: what a main service may ask beyond the spec.
        return {
          status: 200,
          body: { agent: { version: agentVersion, ...(features.length ? { features } : {}) }, adapter: { version, type } },
        };
      },
    },
    // `?include=status`, an extension of interface B: a caller that wants both needs one request.
    {
      method: 'GET',
      path: '/deployments',
      handle: async ({ query }) => ({
        status: 200,
        body: await deployments.list({ withStatus: query.getAll('include').includes('status') }),
      }),
    },
    { method: 'POST', path: '/deployments', handle: async ({ body }) => ({ status: 200, body: await deployments.create(body) }) },
    { method: 'GET', path: '/deployments/:id', handle: async ({ params }) => ({ status: 200, body: await deployments.get(params.id) }) },
    {
      method: 'DELETE',
      path: '/deployments/:id',
      handle: async ({ params }) => {
        await deployments.remove(params.id);
        return { status: 204 };
      },
    },
    {
      method: 'POST',
      path: '/deployments/:id/redeploy',
      // A descriptor in the body (an extension, `redeploy_descriptor`) replaces the stored one: a
      // rollback to a revision's pinned images; without a body it is the spec's redeploy.
      handle: async ({ params, body }) => ({ status: 200, body: await deployments.redeploy(params.id, body) }),
    },
  ];
}
