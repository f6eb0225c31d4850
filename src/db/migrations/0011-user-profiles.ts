import { Migration } from '@mikro-orm/migrations';

/** What PUT /user changes: a user's e-mail, by user name (tokens name their user; tokens come and go). */
export class Migration0011UserProfiles extends Migration {
  override up(): void {
    this.addSql(`create table user_profiles (
      username text primary key,
      email text,
      updated_at timestamptz not null default now()
    )`);
  }
}
