import { Migration } from '@mikro-orm/migrations';

/** Tokens, registries, template repos and templates, with the indexes search relies on. */
export class Migration0001Catalog extends Migration {
  override up(): void {
    this.addSql(`create extension if not exists pg_trgm`);
    this.addSql(`create table api_tokens (
      id serial primary key,
      name text not null,
      username text not null,
      email text,
      digest text not null unique,
      scopes text[] not null,
      created_at timestamptz not null default now(),
      revoked_at timestamptz
    )`);
    this.addSql(`create table registries (
      id serial primary key,
      name text not null,
      endpoint_url text not null,
      enabled boolean not null default true,
      username text,
      sealed_secret text,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    // The original seeded Docker Hub as id 0; clients still send registry_id 0 for it.
    this.addSql(`insert into registries (id, name, endpoint_url) values (0, 'Docker Hub', 'https://index.docker.io')`);
    this.addSql(`create table template_repos (
      id serial primary key,
      name text not null unique,
      template_count integer not null default 0,
      load_errors jsonb not null default '[]',
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create table templates (
      id serial primary key,
      name text not null,
      description text,
      keywords text,
      type text not null default 'Default',
      documentation text,
      authors jsonb not null default '[]',
      source text,
      repo_id integer references template_repos(id) on delete cascade,
      image_count integer not null default 0,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
    this.addSql(`create index templates_repo_id_idx on templates (repo_id)`);
    // Trigram indexes serve search's ILIKE '%term%' filters on name and keywords without a scan.
    this.addSql(`create index templates_name_trgm_idx on templates using gin (name gin_trgm_ops)`);
    this.addSql(`create index templates_keywords_trgm_idx on templates using gin (keywords gin_trgm_ops)`);
    this.addSql(`create table template_images (
      id serial primary key,
      template_id integer not null references templates(id) on delete cascade,
      position integer not null,
      name text not null,
      source text not null,
      description text,
      category text,
      type text,
      command text,
      expose jsonb not null default '[]',
      ports jsonb not null default '[]',
      links jsonb not null default '[]',
      environment jsonb not null default '[]',
      volumes jsonb not null default '[]',
      volumes_from jsonb not null default '[]',
      deployment jsonb
    )`);
    this.addSql(`create index template_images_template_id_idx on template_images (template_id, position)`);
  }
}
