import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { printSchema } from 'graphql';
import { clientMetadata, INTROSPECTION_FILE, POSSIBLE_TYPES_FILE } from './client-metadata';
import { printableSchema } from './index';

/** `npm run schema:print`: rewrites schema.graphql, possible-types.json and introspection.json. */
export const SCHEMA_FILE = path.join(__dirname, 'schema.graphql');

export function printedSchema(): string {
  return `${printSchema(printableSchema())}\n`;
}

async function main(): Promise<void> {
  writeFileSync(SCHEMA_FILE, printedSchema());
  const metadata = await clientMetadata(printableSchema());
  writeFileSync(POSSIBLE_TYPES_FILE, metadata.possibleTypes);
  writeFileSync(INTROSPECTION_FILE, metadata.introspection);
  console.log(`wrote ${SCHEMA_FILE}, ${POSSIBLE_TYPES_FILE}, ${INTROSPECTION_FILE}`);
}

if (require.main === module) {
  void main();
}
