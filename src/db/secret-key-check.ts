import type { MikroORM } from '@mikro-orm/postgresql';
import type { SecretBox } from '../crypto/secret-box';

const CHECK = 'platform secret key check';

export class SecretKeyMismatchError extends Error {}

/**
 * Replicas on one database must share SECRET_KEY: credentials one seals (registry passwords,
 * agents' tokens) the others must open. The first process to start on a database seals a known
 * text with its key into `platform_instance`; every later one must be able to open it, or it
 * refuses to start, rather than answering 500 for every target and registry another replica
 * stored. A replica without SECRET_KEY uses the key in its own DATA_DIR, which no other has.
 */
export async function checkSecretKey(orm: MikroORM, secrets: SecretBox): Promise<void> {
  const connection = orm.em.getConnection();
  // The first writer wins; a replica starting at the same moment reads the winner's value.
  await connection.execute('update platform_instance set secret_key_check = ? where secret_key_check is null', [secrets.seal(CHECK)]);
  const [row] = await connection.execute<{ secret_key_check: string }[]>('select secret_key_check from platform_instance limit 1');
  let opened: string | undefined;
  try {
    opened = secrets.open(row.secret_key_check);
  } catch {
    opened = undefined;
  }
  if (opened !== CHECK) {
    throw new SecretKeyMismatchError(
      'SECRET_KEY is not the key the other replicas on this database use (what they sealed cannot be opened with it): ' +
        'give every replica the same SECRET_KEY (without one, each uses the key in its own DATA_DIR/secret-key)',
    );
  }
}
