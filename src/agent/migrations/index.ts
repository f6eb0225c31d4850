import type { MigrationObject } from '@mikro-orm/core';
import { Migration0001AgentDeployments } from './0001-agent-deployments';

/** Every committed migration of the agent, in order. Append; never edit a landed one. */
export const agentMigrations: MigrationObject[] = [{ name: '0001-agent-deployments', class: Migration0001AgentDeployments }];
