import type { EntityManager } from '@mikro-orm/postgresql';
import type { ImageDefinition } from './template-definition';
import { imageDefinitionView, type ImageView, type TemplateView } from './template-view';

/**
 * The read path for GET /templates, GET /templates/{id} and the `templates`/`template` queries:
 * rows straight into views. Hydrating managed entities for a read-only list cost about three
 * times the queries themselves (profiled in bench/RESULTS.md, scenario 1); nothing here is
 * flushed, so nothing needs change tracking. Same two queries the ORM's populate made.
 */
export async function templateViews(em: EntityManager, ids?: readonly number[]): Promise<TemplateView[]> {
  const connection = em.getConnection();
  const templates = ids
    ? ids.length
      ? await connection.execute<TemplateRow[]>(`select ${TEMPLATE_COLUMNS} from templates where id in (?) order by id`, [ids])
      : []
    : await connection.execute<TemplateRow[]>(`select ${TEMPLATE_COLUMNS} from templates order by id`);
  if (templates.length === 0) return [];
  const images = await connection.execute<ImageRow[]>(
    `select ${IMAGE_COLUMNS} from template_images where template_id in (?) order by template_id, position`,
    [templates.map((t) => t.id)],
  );
  const byTemplate = new Map<number, ImageView[]>();
  for (const row of images) {
    let list = byTemplate.get(row.template_id);
    if (!list) byTemplate.set(row.template_id, (list = []));
    list.push(imageRow(row));
  }
  return templates.map((t) => ({
    id: t.id,
    name: t.name,
    description: t.description,
    keywords: t.keywords,
    source: t.source,
    type: t.type,
    imageCount: t.image_count,
    createdAt: new Date(t.created_at),
    updatedAt: new Date(t.updated_at),
    documentation: t.documentation,
    images: byTemplate.get(t.id) ?? [],
  }));
}

const TEMPLATE_COLUMNS = 'id, name, description, keywords, source, type, image_count, created_at, updated_at, documentation';
const IMAGE_COLUMNS =
  'id, template_id, name, source, description, category, type, command, expose, ports, links, environment, volumes, volumes_from, deployment';

/**
 * The rows of the columns above, as the migrations declare them (src/db/migrations/0001-catalog.ts
 * and later): pg returns timestamptz as Date and jsonb parsed; the jsonb columns hold what
 * TemplateService stored from a validated ImageDefinition, so they are typed, not re-parsed.
 */
interface TemplateRow {
  id: number;
  name: string;
  description: string | null;
  keywords: string | null;
  source: string | null;
  type: string;
  image_count: number;
  created_at: Date;
  updated_at: Date;
  documentation: string | null;
}

interface ImageRow extends ImageDefinition {
  id: number;
  template_id: number;
}

function imageRow(row: ImageRow): ImageView {
  return imageDefinitionView(row, row.id);
}
