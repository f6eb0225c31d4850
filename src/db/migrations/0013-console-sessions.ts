import { Migration } from '@mikro-orm/migrations';

/** The web console's sessions (src/auth/session.service.ts). */
export class Migration0013ConsoleSessions extends Migration {
  override up(): void {
    this.addSql(`create table console_sessions (
      digest text primary key,
      token_id integer references api_tokens (id) on delete cascade,
      username text not null,
      email text,
      created_at timestamptz not null,
      expires_at timestamptz not null
    )`);
    this.addSql('create index console_sessions_expires_at on console_sessions (expires_at)');
  }
}
