import { Migration } from '@mikro-orm/migrations';

/** The agent's deployments. It may share a PostgreSQL server with the main service, hence the prefix. */
export class Migration0001AgentDeployments extends Migration {
  override up(): void {
    this.addSql(`create table agent_deployments (
      id serial primary key,
      name text,
      template jsonb not null,
      service_ids jsonb not null default '[]',
      adapter_key text not null,
      created_at timestamptz not null default now(),
      updated_at timestamptz not null default now()
    )`);
  }
}
