import type { MigrationObject } from '@mikro-orm/core';
import { Migration0001Catalog } from './0001-catalog';

/** Every committed migration of the main service, in order. Append; never edit a landed one. */
export const migrations: MigrationObject[] = [{ name: '0001-catalog', class: Migration0001Catalog }];
