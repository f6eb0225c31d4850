import { defineEntity, p, type InferEntity } from '@mikro-orm/core';

/**
 * A remote orchestrator reached through its agent. The token (endpoint, username, password,
 * certificate) is stored sealed; the endpoint is kept in the clear for listing.
 */
export const DeploymentTarget = defineEntity({
  name: 'DeploymentTarget',
  tableName: 'deployment_targets',
  properties: {
    id: p.integer().primary(),
    name: p.string(),
    endpointUrl: p.string(),
    sealedAuthBlob: p.text(),
    agentVersion: p.string().nullable(),
    adapterVersion: p.string().nullable(),
    adapterType: p.string().nullable(),
    /** When the metadata was last read from the agent. */
    metadataAt: p.datetime().nullable(),
    /** Why the last metadata refresh failed, or null. */
    metadataError: p.text().nullable(),
    createdAt: p.datetime().onCreate(() => new Date()),
  },
});
export type DeploymentTarget = InferEntity<typeof DeploymentTarget>;
