import { Migration } from '@mikro-orm/migrations';

/**
 * Repo templates keyed by (repo, file path) so reloads keep their ids; weighted full-text search; what an app
 * keeps from its template so a template made from it can give it back.
 */
export class Migration0010CatalogIdentitySearch extends Migration {
  override up(): void {
    // A repo template's file, relative to the repo root. Null for templates made by POST /templates.
    this.addSql(`alter table templates add column path text`);
    this.addSql(`create unique index templates_repo_path_idx on templates (repo_id, path) where repo_id is not null and path is not null`);

    // Image names and sources (with / : . _ - as word breaks) kept on the template row, so the
    // generated search vector needs no join: a generated column may only read its own row.
    this.addSql(`alter table templates add column image_text text not null default ''`);
    this.addSql(`update templates t set image_text = coalesce((
      select string_agg(i.name || ' ' || i.source || ' ' || regexp_replace(i.name || ' ' || i.source, '[/:._-]+', ' ', 'g'), ' ' order by i.position)
        from template_images i where i.template_id = t.id), '')`);
    // Weights: name and keywords A, description B, images C, documentation D (README "Search").
    this.addSql(`alter table templates add column search_vector tsvector generated always as (
      setweight(to_tsvector('english'::regconfig, coalesce(name, '') || ' ' || regexp_replace(coalesce(name, ''), '[/:._-]+', ' ', 'g')), 'A') ||
      setweight(to_tsvector('english'::regconfig, coalesce(keywords, '')), 'A') ||
      setweight(to_tsvector('english'::regconfig, coalesce(description, '')), 'B') ||
      setweight(to_tsvector('english'::regconfig, image_text), 'C') ||
      setweight(to_tsvector('english'::regconfig, coalesce(documentation, '')), 'D')
    ) stored`);
    this.addSql(`create index templates_search_vector_idx on templates using gin (search_vector)`);
    // Name and keywords alone: where a broad query's candidates for ranking come from first.
    this.addSql(`alter table templates add column search_head tsvector generated always as (
      setweight(to_tsvector('english'::regconfig, coalesce(name, '') || ' ' || regexp_replace(coalesce(name, ''), '[/:._-]+', ' ', 'g')), 'A') ||
      setweight(to_tsvector('english'::regconfig, coalesce(keywords, '')), 'A')
    ) stored`);
    this.addSql(`create index templates_search_head_idx on templates using gin (search_head)`);

    // What a template made from an app gives back (src/apps/app-template.ts).
    this.addSql(`alter table apps add column description text, add column keywords text, add column type text`);
    // The image name a service was made from ("Reverse Proxy"), before sanitising into a container name.
    this.addSql(`alter table services add column image_name text`);
  }
}
