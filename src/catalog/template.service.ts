import type { EntityManager } from '@mikro-orm/postgresql';
import type { KeysetPage } from '../db/keyset';
import { queryRows } from '../db/rows';
import { NotFoundError } from '../errors';
import type { TemplateDefinition } from './template-definition';
import { templateViews, templateViewsPage } from './template-read';
import { TemplateRepo } from './template-repo.entity';
import { storedTemplate, templateView, type TemplateView } from './template-shape';
import { storedImage } from '../parts/image';
import { Template, TemplateImage } from './template.entity';

export interface KeywordCount {
  keyword: string;
  count: number;
}

export class TemplateService {
  private readonly emOf: () => EntityManager;
  private readonly reads: EntityManager;

  /**
   * `em` as a function is called on first need; views only borrow pooled connections, through
   * `reads` (any manager of the ORM: the root one spares a request its fork).
   */
  constructor(em: EntityManager | (() => EntityManager), reads?: EntityManager) {
    this.emOf = typeof em === 'function' ? em : () => em;
    this.reads = reads ?? (typeof em === 'function' ? em() : em);
  }

  private get em(): EntityManager {
    return this.emOf();
  }

  /** Rows straight into views, as listViews: a page is read often and never flushed. */
  pageViews(window: KeysetPage): Promise<TemplateView[]> {
    return templateViewsPage(this.reads, window);
  }

  /** Read on every list's cost check: a pooled statement, no fork. */
  async count(): Promise<number> {
    const [row] = await queryRows<{ count: number }>(this.reads, 'select count(*)::int as count from templates');
    return row.count;
  }

  async ofRepos(repoIds: readonly number[]): Promise<TemplateView[]> {
    const templates = await this.em.find(Template, { repo: { $in: [...repoIds] } }, { orderBy: { id: 'asc' }, populate: ['images'] });
    return templates.map((t) => ({ ...templateView(t), repoId: t.repo?.id ?? null }));
  }

  async get(id: number): Promise<Template> {
    const template = await this.em.findOne(Template, { id }, { populate: ['images'] });
    if (!template) throw NotFoundError.of('template', id);
    return template;
  }

  /** For reading only: no managed entities. */
  listViews(): Promise<TemplateView[]> {
    return templateViews(this.reads);
  }

  async getView(id: number): Promise<TemplateView> {
    const [view] = await templateViews(this.reads, [id]);
    if (!view) throw NotFoundError.of('template', id);
    return view;
  }

  async delete(id: number): Promise<Template> {
    const template = await this.get(id);
    const repo = template.repo ? await this.em.findOne(TemplateRepo, template.repo.id) : null;
    if (repo) repo.templateCount = Math.max(0, repo.templateCount - 1);
    await this.em.remove(template).flush();
    return template;
  }

  /** Unflushed: the caller flushes, usually in a transaction. */
  build(def: TemplateDefinition, repo: TemplateRepo | null, path: string | null = null): Template {
    const template = this.em.create(Template, { ...storedTemplate(def), repo, path });
    def.images.forEach((image, position) => this.em.create(TemplateImage, { template, position, ...storedImage(image) }));
    return template;
  }

  /** In place and unflushed: the template keeps its id, images keep theirs by position. */
  update(template: Template, def: TemplateDefinition): Template {
    this.em.assign(template, storedTemplate(def));
    const images = template.images.getItems();
    def.images.forEach((image, position) => {
      if (position < images.length) this.em.assign(images[position], storedImage(image));
      else this.em.create(TemplateImage, { template, position, ...storedImage(image) });
    });
    for (const extra of images.slice(def.images.length)) this.em.remove(extra);
    return template;
  }

  /** Counted once per template, in order of first appearance. */
  async keywords(): Promise<KeywordCount[]> {
    const rows: { keyword: string; count: string }[] = await this.em.getConnection().execute(`
      select keyword, count(distinct template_id) as count
        from (
          select t.id as template_id, lower(trim(k.word)) as keyword, t.id::bigint * 1000000 + k.pos as seen
            from templates t, unnest(string_to_array(coalesce(t.keywords, ''), ',')) with ordinality as k(word, pos)
        ) words
       where keyword <> ''
       group by keyword
       order by min(seen)`);
    return rows.map((row) => ({ keyword: row.keyword, count: Number(row.count) }));
  }
}
