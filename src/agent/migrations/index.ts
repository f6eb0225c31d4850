import { migrationsIn } from '../../db/migration-files';

/** Every committed migration of the agent (NNNN-name.ts here), in order. Add a file; never edit a landed one. */
export const agentMigrations = migrationsIn(__dirname);
