import { Migration } from '@mikro-orm/migrations';

/**
 * A restart policy column on template images and services (no, always, unless-stopped, on-failure[:N]);
 * services' policies move into it from their options (`restartPolicy`, or older rows' HostConfig.RestartPolicy).
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
