import type { MigrationObject } from '@mikro-orm/core';
import { Migration0001Catalog } from './0001-catalog';
import { Migration0002Apps } from './0002-apps';
import { Migration0003Targets } from './0003-targets';
import { Migration0011UserProfiles } from './0011-user-profiles';

/** Every committed migration of the main service, in order. Append; never edit a landed one. */
export const migrations: MigrationObject[] = [
  { name: '0001-catalog', class: Migration0001Catalog },
  { name: '0002-apps', class: Migration0002Apps },
  { name: '0003-targets', class: Migration0003Targets },
  { name: '0011-user-profiles', class: Migration0011UserProfiles },
];
