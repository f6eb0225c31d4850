import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamp, updatedTimestamp } from '../db/timestamps';
import type { DeployTemplate } from './descriptor';

/** `template` has the override applied, so a redeploy needs nothing else; `adapterKey` changes on every redeploy. */
export const AgentDeployment = defineEntity({
  name: 'AgentDeployment',
  tableName: 'agent_deployments',
  properties: {
    id: p.integer().primary(),
    name: p.text().nullable(),
    template: p.json<DeployTemplate>(),
    serviceIds: p.json<string[]>().defaultRaw(`'[]'`),
    adapterKey: p.text(),
    createdAt: timestamp(),
    updatedAt: updatedTimestamp(),
  },
});
export type AgentDeployment = InferEntity<typeof AgentDeployment>;
