import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSchema } from 'graphql';
import { printableSchema } from './index';

/** `npm run schema:print`: rewrites schema/schema.graphql (a test fails when it is stale). */
export const SCHEMA_FILE = path.join(__dirname, 'schema.graphql');

export function printedSchema(): string {
  return `${printSchema(printableSchema())}\n`;
}

if (require.main === module) {
  writeFileSync(SCHEMA_FILE, printedSchema());
  console.log(`wrote ${SCHEMA_FILE}`);
}
