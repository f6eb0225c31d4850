import { Migration } from '@mikro-orm/migrations';

export class Migration0005SubscriptionTickets extends Migration {
  override up(): void {
    this.addSql(`create table subscription_tickets (
      digest text primary key,
      token_id integer references api_tokens (id) on delete cascade,
      username text not null,
      email text,
      expires_at timestamptz not null
    )`);
    this.addSql('create index subscription_tickets_expires_at on subscription_tickets (expires_at)');
  }
}
