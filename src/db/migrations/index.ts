import type { MigrationObject } from '@mikro-orm/core';
import { Migration0001Catalog } from './0001-catalog';
import { Migration0002Apps } from './0002-apps';
import { Migration0003Targets } from './0003-targets';
import { Migration0005SubscriptionTickets } from './0005-subscription-tickets';
import { Migration0009AppScopedNames } from './0009-app-scoped-names';
import { Migration0010CatalogIdentitySearch } from './0010-catalog-identity-search';
import { Migration0011UserProfiles } from './0011-user-profiles';
import { Migration0012ServiceBuildLog } from './0012-service-build-log';
import { Migration0013ConsoleSessions } from './0013-console-sessions';
import { Migration0014SecretKeyCheck } from './0014-secret-key-check';

/** Every committed migration of the main service, in order. Append; never edit a landed one. */
export const migrations: MigrationObject[] = [
  { name: '0001-catalog', class: Migration0001Catalog },
  { name: '0002-apps', class: Migration0002Apps },
  { name: '0003-targets', class: Migration0003Targets },
  { name: '0005-subscription-tickets', class: Migration0005SubscriptionTickets },
  { name: '0009-app-scoped-names', class: Migration0009AppScopedNames },
  { name: '0010-catalog-identity-search', class: Migration0010CatalogIdentitySearch },
  { name: '0011-user-profiles', class: Migration0011UserProfiles },
  { name: '0012-service-build-log', class: Migration0012ServiceBuildLog },
  { name: '0013-console-sessions', class: Migration0013ConsoleSessions },
  { name: '0014-secret-key-check', class: Migration0014SecretKeyCheck },
];
