import { Migration } from '@mikro-orm/migrations';

/**
 * Service names are unique within their app, not across apps: inside an app every service is
 * reachable by its own name, and the engine objects (containers, volumes) carry app-scoped
 * names instead. Services get the compose options that have no column of their own, apps the
 * warnings about what a compose file asked for that was not honoured as written.
 */
export class Migration0009AppScopedNames extends Migration {
  override up(): void {
    this.addSql('alter table services drop constraint if exists services_name_key');
    this.addSql('alter table services add constraint services_app_id_name_key unique (app_id, name)');
    this.addSql(`alter table services add column options jsonb not null default '{}'`);
    this.addSql(`alter table apps add column warnings jsonb not null default '[]'`);
  }
}
