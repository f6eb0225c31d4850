import { Migration } from '@mikro-orm/migrations';

/** Apps, their categories, services, links and shared volumes; the installation's engine label. */
export class Migration0002Apps extends Migration {
  override up(): void {
    // Containers and networks carry this id, so two installations (or two test databases) on
    // one engine never list, rebuild or remove each other's containers.
    this.addSql(`create table platform_instance (id text primary key)`);
    this.addSql(`insert into platform_instance (id) values (replace(gen_random_uuid()::text, '-', ''))`);
    this.addSql(`create table apps (
      id serial primary key,
      name text not null,
      from_source text,
      documentation text,
      errors jsonb not null default '[]',
      created_at timestamptz not null default now()
    )`);
    this.addSql(`create table app_categories (
      id serial primary key,
      app_id integer not null references apps(id) on delete cascade,
      name text not null,
      position integer not null default 0,
      unique (app_id, name)
    )`);
    this.addSql(`create table services (
      id serial primary key,
      app_id integer not null references apps(id) on delete cascade,
      position integer not null default 0,
      name text not null unique,
      internal_name text not null,
      description text,
      from_image text not null,
      type text,
      command text,
      ports jsonb not null default '[]',
      expose jsonb not null default '[]',
      environment jsonb not null default '[]',
      volumes jsonb not null default '[]',
      categories jsonb not null default '[]',
      default_exposed_ports jsonb not null default '[]',
      last_error jsonb,
      starting_at timestamptz
    )`);
    this.addSql(`create index services_app_id_idx on services (app_id, position)`);
    this.addSql(`create table service_links (
      id serial primary key,
      from_service_id integer not null references services(id) on delete cascade,
      to_service_id integer not null references services(id) on delete cascade,
      alias text not null,
      unique (from_service_id, to_service_id)
    )`);
    this.addSql(`create index service_links_to_idx on service_links (to_service_id)`);
    this.addSql(`create table shared_volumes (
      id serial primary key,
      mounted_on_service_id integer not null references services(id) on delete cascade,
      exported_from_service_id integer not null references services(id) on delete cascade,
      unique (mounted_on_service_id, exported_from_service_id)
    )`);
    this.addSql(`create index shared_volumes_exported_idx on shared_volumes (exported_from_service_id)`);
  }
}
