import { Migration } from '@mikro-orm/migrations';

/**
 * Service names unique within their app (engine objects carry app-scoped names instead); services get the
 * compose options that have no column, apps the warnings about what a compose file asked for and did not get.
 */
export class Migration0009AppScopedNames extends Migration {
  override up(): void {
    this.addSql('alter table services drop constraint if exists services_name_key');
    this.addSql('alter table services add constraint services_app_id_name_key unique (app_id, name)');
    this.addSql(`alter table services add column options jsonb not null default '{}'`);
    this.addSql(`alter table apps add column warnings jsonb not null default '[]'`);
  }
}
