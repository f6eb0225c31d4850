import type { MigrationObject } from '@mikro-orm/core';
import { readdirSync } from 'node:fs';
import path from 'node:path';

const MIGRATION_FILE = /^(\d{4}-[a-z0-9-]+)\.(ts|js)$/;

/**
 * In number order; a migration is just its file, so two branches that each add one merge without
 * a conflict. Each file is loaded when its class is first asked for: the names alone say whether
 * anything is pending, and loading the files loads the migrator (every class extends its
 * `Migration`), a fifth of a start's module loading when nothing is.
 */
export function migrationsIn(dir: string): MigrationObject[] {
  const migrations = readdirSync(dir)
    .map((file) => MIGRATION_FILE.exec(file))
    .filter((match): match is RegExpExecArray => match !== null)
    .sort((a, b) => a[1].localeCompare(b[1]))
    .map(([file, name]) => {
      let loaded: MigrationObject['class'] | undefined;
      return {
        name,
        get class() {
          if (loaded) return loaded;
          // eslint-disable-next-line @typescript-eslint/no-require-imports -- the folder's files are the list
          const exports = require(path.join(dir, file)) as Record<string, MigrationObject['class']>;
          const classes = Object.values(exports);
          if (classes.length !== 1) throw new Error(`${file} must export one migration class, not ${classes.length}`);
          return (loaded = classes[0]);
        },
      };
    });
  // A build that left them out would start on an empty database and fail at the first query instead.
  if (migrations.length === 0) throw new Error(`no migrations in ${dir}: the build is incomplete`);
  return migrations;
}
