import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import type { DeployTemplate } from './descriptor';

/**
 * One deployment on this agent's orchestrator. `template` is the merged template (override
 * applied), so a redeploy needs nothing else; `adapterKey` names the current generation of
 * orchestrator objects (networks, containers, services) and changes on every redeploy.
 */
export const AgentDeployment = defineEntity({
  name: 'AgentDeployment',
  tableName: 'agent_deployments',
  properties: {
    id: p.integer().primary(),
    name: p.text().nullable(),
    template: p.json<DeployTemplate>(),
    serviceIds: p.json<string[]>().defaultRaw(`'[]'`),
    adapterKey: p.text(),
    createdAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date()),
    updatedAt: p
      .datetime()
      .defaultRaw('now()')
      .onCreate(() => new Date())
      .onUpdate(() => new Date()),
  },
});
export type AgentDeployment = InferEntity<typeof AgentDeployment>;
