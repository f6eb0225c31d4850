import { readFileSync } from 'node:fs';
import { printedSchema, SCHEMA_FILE } from '../schema/print';

test('schema/schema.graphql is the printed schema (run `npm run schema:print` after a change)', () => {
  expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(printedSchema());
});
