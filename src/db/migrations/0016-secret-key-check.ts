import { Migration } from '@mikro-orm/migrations';

/** A value sealed with the installation's SECRET_KEY, by which a replica with another key knows it (src/db/secret-key-check.ts). */
export class Migration0016SecretKeyCheck extends Migration {
  override up(): void {
    this.addSql('alter table platform_instance add column secret_key_check text');
  }
}
