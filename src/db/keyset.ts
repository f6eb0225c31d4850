import type { EntityManager } from '@mikro-orm/postgresql';
import type { EntityName, FilterQuery, FindOptions } from '@mikro-orm/core';

/** `limit` is one over the page, to tell if there is a next. Keyset, not offset: rows added while a client pages shift nothing. */
export interface KeysetPage {
  after?: number;
  before?: number;
  limit: number;
  inverted: boolean;
}

export function keysetWhere(page: KeysetPage): { id?: { $gt?: number; $lt?: number } } {
  const id: { $gt?: number; $lt?: number } = {};
  if (page.after !== undefined) id.$gt = page.after;
  if (page.before !== undefined) id.$lt = page.before;
  return Object.keys(id).length ? { id } : {};
}

/** The page's rows in the SQL query's order (ascending ids, or descending when inverted). */
export function findPage<T extends object>(
  em: EntityManager,
  entity: EntityName<T>,
  page: KeysetPage,
  options: { populate?: readonly string[] } = {},
): Promise<T[]> {
  const find: FindOptions<T> = { orderBy: { id: page.inverted ? 'desc' : 'asc' } as never, limit: page.limit };
  if (options.populate) find.populate = options.populate as never;
  return em.find(entity, keysetWhere(page) as FilterQuery<T>, find);
}
