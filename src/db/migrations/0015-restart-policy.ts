import { Migration } from '@mikro-orm/migrations';

/**
 * A container's restart policy is a part of its own (no, always, unless-stopped, on-failure[:N]).
 * An app's compose `restart` was kept in its service's options, earlier still as the engine's
 * HostConfig.RestartPolicy: both move into the column.
 */
export class Migration0015RestartPolicy extends Migration {
  override up(): void {
    this.addSql('alter table template_images add column restart_policy text null');
    this.addSql('alter table services add column restart_policy text null');
    this.addSql(`update services set restart_policy = coalesce(
      options->>'restartPolicy',
      case options#>>'{engine,hostConfig,RestartPolicy,Name}'
        when '' then 'no'
        when 'on-failure' then 'on-failure' || coalesce(':' || nullif(options#>>'{engine,hostConfig,RestartPolicy,MaximumRetryCount}', '0'), '')
        else options#>>'{engine,hostConfig,RestartPolicy,Name}'
      end)`);
    this.addSql(`update services set options = (options - 'restartPolicy') #- '{engine,hostConfig,RestartPolicy}'`);
  }
}
