import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamp } from '../db/timestamps';

/** The token is stored sealed; the endpoint is kept in the clear for listing. */
export const DeploymentTarget = defineEntity({
  name: 'DeploymentTarget',
  tableName: 'deployment_targets',
  properties: {
    id: p.integer().primary(),
    name: p.text(),
    endpointUrl: p.text(),
    sealedAuthBlob: p.text(),
    agentVersion: p.text().nullable(),
    adapterVersion: p.text().nullable(),
    adapterType: p.text().nullable(),
    metadataAt: p.datetime().nullable(),
    metadataError: p.text().nullable(),
    createdAt: timestamp(),
  },
});
export type DeploymentTarget = InferEntity<typeof DeploymentTarget>;

/** A target as reads show it: the entity, or its row read without the ORM (TargetService.list). */
export type DeploymentTargetView = Pick<
  DeploymentTarget,
  | 'id'
  | 'name'
  | 'endpointUrl'
  | 'sealedAuthBlob'
  | 'agentVersion'
  | 'adapterVersion'
  | 'adapterType'
  | 'metadataAt'
  | 'metadataError'
  | 'createdAt'
>;
