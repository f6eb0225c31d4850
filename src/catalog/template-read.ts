import type { EntityManager } from '@mikro-orm/postgresql';
import type { KeysetPage } from '../db/keyset';
import { withConnection, type HeldConnection } from '../db/rows';
import { IMAGE_COLUMNS, TEMPLATE_COLUMNS, templateRowView, type ImageRow, type TemplateRow, type TemplateView } from './template-shape';

// Rows straight into views: nothing read here is flushed, and hydrating entities cost more than the
// queries (bench/RESULTS.md, scenario 1). Both reads of one call borrow one pooled connection: each
// acquire and release through knex's pool costs allocations and a timer, on every template read.
export async function templateViews(em: EntityManager, ids?: readonly number[]): Promise<TemplateView[]> {
  if (ids?.length === 0) return [];
  return withConnection(em, async (connection) => {
    const templates = ids
      ? await connection.query<TemplateRow>(`select ${TEMPLATE_COLUMNS} from templates where id = any($1) order by id`, [ids])
      : await connection.query<TemplateRow>(`select ${TEMPLATE_COLUMNS} from templates order by id`);
    return withImages(connection, templates);
  });
}

/** A keyset window of them (ascending ids, or descending when inverted), as the connection pages. */
export async function templateViewsPage(em: EntityManager, page: KeysetPage): Promise<TemplateView[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (page.after !== undefined) where.push(`id > $${params.push(page.after)}`);
  if (page.before !== undefined) where.push(`id < $${params.push(page.before)}`);
  return withConnection(em, async (connection) => {
    const templates = await connection.query<TemplateRow>(
      `select ${TEMPLATE_COLUMNS} from templates ${where.length ? `where ${where.join(' and ')}` : ''}
      order by id ${page.inverted ? 'desc' : 'asc'} limit $${params.push(page.limit)}`,
      params,
    );
    return withImages(connection, templates);
  });
}

async function withImages(connection: HeldConnection, templates: TemplateRow[]): Promise<TemplateView[]> {
  if (templates.length === 0) return [];
  const images = await connection.query<ImageRow>(
    `select ${IMAGE_COLUMNS} from template_images where template_id = any($1) order by template_id, position`,
    [templates.map((t) => t.id)],
  );
  const byTemplate = new Map<number, ImageRow[]>();
  for (const row of images) {
    let list = byTemplate.get(row.template_id);
    if (!list) byTemplate.set(row.template_id, (list = []));
    list.push(row);
  }
  return templates.map((t) => templateRowView(t, byTemplate.get(t.id) ?? []));
}
