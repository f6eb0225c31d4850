import { Migration } from '@mikro-orm/migrations';

/** The output of a service's image build (compose `build:`), shown in its app's journal. */
export class Migration0012ServiceBuildLog extends Migration {
  override up(): void {
    this.addSql(`alter table services add column build_log jsonb not null default '[]'`);
  }
}
