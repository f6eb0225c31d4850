import { Migration } from '@mikro-orm/migrations';

export class Migration0003Targets extends Migration {
  override up(): void {
    this.addSql(`create table deployment_targets (
      id serial primary key,
      name text not null,
      endpoint_url text not null,
      sealed_auth_blob text not null,
      agent_version text,
      adapter_version text,
      adapter_type text,
      metadata_at timestamptz,
      metadata_error text,
      created_at timestamptz not null default now()
    )`);
  }
}
