import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamp } from '../db/timestamps';
import type { PinnedImage, RevisionDefinition } from './revision-definition';

export const REVISION_OUTCOMES = ['in progress', 'succeeded', 'failed', 'rolled back'] as const;
export type RevisionOutcome = (typeof REVISION_OUTCOMES)[number];

/** create, redeploy (hooks, rebuilds), service (an edit of one), rollback. */
export type RevisionAction = 'create' | 'redeploy' | 'service' | 'rollback';

/** Who made it: a token's name, "legacy-ui", a hook's name, or the platform itself. */
export interface RevisionAuthor {
  kind: string;
  id: string | null;
  name: string;
}

/**
 * One deploy of an app (appId) or of a remote deployment (targetId + deploymentId), numbered per
 * owner. No foreign keys: the owners' rooms sit above this one, so they delete their revisions
 * themselves. `restore` is what puts the owner back if a switch to this revision does not finish.
 */
export const Revision = defineEntity({
  name: 'Revision',
  tableName: 'revisions',
  uniques: [
    { name: 'revisions_app_id_number_key', properties: ['appId', 'number'] },
    { name: 'revisions_deployment_number_key', properties: ['targetId', 'deploymentId', 'number'] },
  ],
  indexes: [{ name: 'revisions_outcome_idx', properties: ['outcome'] }],
  properties: {
    id: p.integer().primary(),
    appId: p.integer().nullable(),
    targetId: p.integer().nullable(),
    deploymentId: p.integer().nullable(),
    number: p.integer(),
    action: p.text().$type<RevisionAction>(),
    /** The revision a rollback went back to. */
    rollbackOf: p.integer().nullable(),
    /** Null for a deployment made before history: its agent alone knew what it was. */
    definition: p.json<RevisionDefinition>().$type<RevisionDefinition | null>().nullable(),
    images: p
      .json<PinnedImage[]>()
      .$type<PinnedImage[]>()
      .defaultRaw(`'[]'`)
      .onCreate(() => []),
    outcome: p.text().$type<RevisionOutcome>(),
    error: p.text().nullable(),
    /** The one its owner runs now. */
    current: p.boolean().default(false),
    authorKind: p.text(),
    authorId: p.text().nullable(),
    authorName: p.text(),
    restore: p.json<unknown>().$type<unknown>().nullable(),
    createdAt: timestamp(),
    settledAt: p.datetime().nullable(),
  },
});
export type Revision = InferEntity<typeof Revision>;
