import { Migration } from '@mikro-orm/migrations';

/**
 * Deploy hooks, domain events with their subscriptions and delivery log, and the audit log: append-only,
 * each row hash-chained to the one before by the database itself, so the chain is in commit order.
 */
export class Migration0014Automation extends Migration {
  override up(): void {
    this.addSql(`create table deploy_hooks (
      id serial primary key,
      public_id text not null,
      name text not null,
      kind text not null,
      app_id integer references apps (id) on delete cascade,
      target_id integer references deployment_targets (id) on delete cascade,
      deployment_id integer,
      template_repo_id integer references template_repos (id) on delete cascade,
      sealed_secret text not null,
      allow_tag boolean not null default false,
      created_at timestamptz not null default now(),
      rotated_at timestamptz,
      last_used_at timestamptz,
      constraint deploy_hooks_public_id_key unique (public_id)
    )`);
    this.addSql(`create table deploy_hook_calls (
      id serial primary key,
      hook_id integer not null references deploy_hooks (id) on delete cascade,
      delivery_id text,
      event text,
      status text not null,
      message text,
      received_at timestamptz not null default now(),
      finished_at timestamptz,
      constraint deploy_hook_calls_hook_id_delivery_id_key unique (hook_id, delivery_id)
    )`);
    this.addSql(`create table app_automation (
      app_id integer primary key references apps (id) on delete cascade,
      template_id integer references templates (id) on delete set null,
      redeploy_on_template_change boolean not null default false
    )`);

    this.addSql(`create table domain_events (
      id uuid primary key,
      type text not null,
      occurred_at timestamptz not null,
      payload jsonb not null,
      dedupe_key text,
      created_at timestamptz not null default now(),
      constraint domain_events_dedupe_key_key unique (dedupe_key)
    )`);
    this.addSql(`create table event_subscriptions (
      id serial primary key,
      url text not null,
      event_types text[] not null,
      sealed_secret text not null,
      enabled boolean not null default true,
      disabled_reason text,
      created_at timestamptz not null default now()
    )`);
    this.addSql(`create table event_deliveries (
      id serial primary key,
      subscription_id integer not null references event_subscriptions (id) on delete cascade,
      event_id uuid not null references domain_events (id) on delete cascade,
      attempt integer not null,
      status text not null,
      response_code integer,
      duration_ms integer,
      response_excerpt text,
      error text,
      at timestamptz not null default now()
    )`);
    this.addSql('create index event_deliveries_subscription_idx on event_deliveries (subscription_id, id)');
    this.addSql(`create table target_health (
      target_id integer primary key references deployment_targets (id) on delete cascade,
      reachable boolean not null,
      error text,
      checked_at timestamptz not null
    )`);

    this.addSql(`create table api_token_uses (
      token_id integer primary key references api_tokens (id) on delete cascade,
      first_used_at timestamptz not null default now()
    )`);
    this.addSql(`create table audit_events (
      id serial primary key,
      at timestamptz not null default now(),
      actor_kind text not null,
      actor_id text,
      actor_name text,
      door text not null,
      operation text not null,
      object_type text,
      object_id text,
      input jsonb not null default '{}',
      outcome text not null,
      client_address text,
      user_agent text,
      prev_hash text not null,
      hash text not null
    )`);
    this.addSql('create index audit_events_at_idx on audit_events (at)');
    this.addSql(`create table audit_prunes (
      id serial primary key,
      through_id integer not null,
      last_hash text not null,
      at timestamptz not null default now()
    )`);
    // The text a row's hash is taken over: every column but the hash, times in UTC whatever the
    // session's time zone, so that audit:verify recomputes exactly what the insert computed.
    this.addSql(`create function audit_event_digest(previous text, e audit_events) returns text language sql immutable as $$
      select encode(sha256(convert_to(
        previous || '|' || e.id || '|' || to_char(e.at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.US"Z"') || '|' ||
        jsonb_build_array(e.actor_kind, e.actor_id, e.actor_name, e.door, e.operation, e.object_type, e.object_id,
          e.input, e.outcome, e.client_address, e.user_agent)::text, 'UTF8')), 'hex')
    $$`);
    // The id is taken under the lock, so ids follow the chain's order even when inserts race.
    this.addSql(`create function audit_events_chain() returns trigger language plpgsql as $$
      declare previous text;
      begin
        perform pg_advisory_xact_lock(hashtext('audit_events_chain'));
        new.id := nextval(pg_get_serial_sequence('audit_events', 'id'));
        select hash into previous from audit_events order by id desc limit 1;
        if previous is null then
          select last_hash into previous from audit_prunes order by id desc limit 1;
        end if;
        new.prev_hash := coalesce(previous, repeat('0', 64));
        new.hash := audit_event_digest(new.prev_hash, new);
        return new;
      end $$`);
    this.addSql('create trigger audit_events_chain before insert on audit_events for each row execute function audit_events_chain()');
    // Append-only for the service: only retention's pruning (audit_prune) may delete, and only the
    // oldest rows, leaving the hash of the last one it removed as the chain's new anchor.
    this.addSql(`create function audit_events_refuse() returns trigger language plpgsql as $$
      begin
        if tg_op = 'DELETE' and current_setting('platform.audit_prune', true) = 'on' then
          return old;
        end if;
        raise exception 'audit_events is append-only (% refused)', tg_op using errcode = 'insufficient_privilege';
      end $$`);
    this.addSql(
      'create trigger audit_events_append_only before update or delete on audit_events for each row execute function audit_events_refuse()',
    );
    this.addSql(
      'create trigger audit_events_no_truncate before truncate on audit_events for each statement execute function audit_events_refuse()',
    );
    this.addSql(
      'create trigger audit_prunes_append_only before update or delete on audit_prunes for each row execute function audit_events_refuse()',
    );
    this.addSql(`create function audit_prune(before timestamptz) returns integer language plpgsql as $$
      declare last_id integer; last_hash text; removed integer;
      begin
        perform pg_advisory_xact_lock(hashtext('audit_events_chain'));
        select id, hash into last_id, last_hash from audit_events where at < before order by id desc limit 1;
        if last_id is null then
          return 0;
        end if;
        insert into audit_prunes (through_id, last_hash) values (last_id, last_hash);
        perform set_config('platform.audit_prune', 'on', true);
        delete from audit_events where id <= last_id;
        get diagnostics removed = row_count;
        perform set_config('platform.audit_prune', 'off', true);
        return removed;
      end $$`);
  }
}
