import type { EntityManager } from '@mikro-orm/postgresql';
import type { KeysetPage } from '../db/keyset';
import { queryRows } from '../db/rows';
import { IMAGE_COLUMNS, TEMPLATE_COLUMNS, templateRowView, type TemplateRow, type TemplateView } from './template-shape';

// Rows straight into views: nothing read here is flushed, and hydrating entities cost more than the
// queries (bench/RESULTS.md, scenario 1). Each template's images come in its own row, as JSON that
// PostgreSQL builds: one statement per read, where a second round trip cost more than the rows.
const TEMPLATE_READ = `select ${TEMPLATE_COLUMNS}, (
  select coalesce(json_agg(i), '[]') from (
    select ${IMAGE_COLUMNS} from template_images where template_id = templates.id order by position
  ) i
) as images from templates`;

export async function templateViews(em: EntityManager, ids?: readonly number[]): Promise<TemplateView[]> {
  if (ids?.length === 0) return [];
  const rows = ids
    ? await queryRows<TemplateRow>(em, `${TEMPLATE_READ} where id = any($1) order by id`, [ids])
    : await queryRows<TemplateRow>(em, `${TEMPLATE_READ} order by id`);
  return rows.map(templateRowView);
}

/** A keyset window of them (ascending ids, or descending when inverted), as the connection pages. */
export async function templateViewsPage(em: EntityManager, page: KeysetPage): Promise<TemplateView[]> {
  const where: string[] = [];
  const params: unknown[] = [];
  if (page.after !== undefined) where.push(`id > $${params.push(page.after)}`);
  if (page.before !== undefined) where.push(`id < $${params.push(page.before)}`);
  const rows = await queryRows<TemplateRow>(
    em,
    `${TEMPLATE_READ} ${where.length ? `where ${where.join(' and ')}` : ''}
    order by id ${page.inverted ? 'desc' : 'asc'} limit $${params.push(page.limit)}`,
    params,
  );
  return rows.map(templateRowView);
}
