import { Migration } from '@mikro-orm/migrations';

/**
 * Every deploy of an app or a deployment is a numbered revision with its rendered definition and
 * image digests; a service rolled back runs the digest it was pinned to.
 */
export class Migration0017Revisions extends Migration {
  override up(): void {
    this.addSql(`create table revisions (
      id serial primary key,
      app_id integer,
      target_id integer,
      deployment_id integer,
      number integer not null,
      action text not null,
      rollback_of integer,
      definition jsonb,
      images jsonb not null default '[]',
      outcome text not null,
      error text,
      current boolean not null default false,
      author_kind text not null,
      author_id text,
      author_name text not null,
      restore jsonb,
      created_at timestamptz not null default now(),
      settled_at timestamptz,
      constraint revisions_app_id_number_key unique (app_id, number),
      constraint revisions_deployment_number_key unique (target_id, deployment_id, number)
    )`);
    this.addSql('create index revisions_outcome_idx on revisions (outcome)');
    this.addSql('alter table services add column pinned_image text null');
  }
}
