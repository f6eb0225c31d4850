import { UnderscoreNamingStrategy } from '@mikro-orm/core';

/** PostgreSQL's NAMEDATALEN - 1: longer identifiers are truncated. */
const MAX_IDENTIFIER = 63;
const SUFFIX = { foreign: 'fkey', unique: 'key', index: 'idx', check: 'check' } as const;

/** PostgreSQL's own names (`<table>_<column>_fkey`), not MikroORM's, so migrations and entities compare as one schema. */
export class PostgresNamingStrategy extends UnderscoreNamingStrategy {
  override indexName(
    tableName: string,
    columns: string[],
    type: 'primary' | 'foreign' | 'unique' | 'index' | 'sequence' | 'check',
  ): string {
    if (type === 'primary' || type === 'sequence') return super.indexName(tableName, columns, type);
    const table = tableName.includes('.') ? tableName.slice(tableName.indexOf('.') + 1) : tableName;
    return postgresObjectName(table, columns.map((column) => column.replace(/\./g, '_')).join('_'), SUFFIX[type]);
  }
}

/** PostgreSQL's makeObjectName: shortens the longer of the two names until the whole fits. */
export function postgresObjectName(name1: string, name2: string, label: string): string {
  let chars1 = name1.length;
  let chars2 = name2.length;
  const available = MAX_IDENTIFIER - (label.length + 1) - (name2 ? 1 : 0);
  while (chars1 + chars2 > available) {
    if (chars1 > chars2) chars1--;
    else chars2--;
  }
  return `${name1.slice(0, chars1)}${name2 ? `_${name2.slice(0, chars2)}` : ''}_${label}`;
}
