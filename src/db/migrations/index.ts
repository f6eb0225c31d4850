import { migrationsIn } from '../migration-files';

/** Every committed migration of the main service (NNNN-name.ts here), in order. Add a file; never edit a landed one. */
export const migrations = migrationsIn(__dirname);
