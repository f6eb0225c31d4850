import { defineEntity, p, type InferEntity } from '@mikro-orm/core';
import { timestamp } from '../db/timestamps';

export interface RepoLoadError {
  file: string;
  /** Null for files that were not read, and older rows. */
  line?: number | null;
  message: string;
}

/** A source of templates: a git URL, a local git repository or directory, or GitHub owner/repo. */
export const TemplateRepo = defineEntity({
  name: 'TemplateRepo',
  tableName: 'template_repos',
  properties: {
    id: p.integer().primary(),
    name: p.text().unique(),
    templateCount: p.integer().default(0),
    loadErrors: p.json<RepoLoadError[]>().$type<RepoLoadError[]>().defaultRaw(`'[]'`),
    createdAt: timestamp(),
    // Set by a reload, not by every update.
    updatedAt: timestamp(),
  },
});
export type TemplateRepo = InferEntity<typeof TemplateRepo>;
