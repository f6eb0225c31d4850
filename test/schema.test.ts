import { spawnSync } from 'node:child_process';
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { clientMetadata, INTROSPECTION_FILE, POSSIBLE_TYPES_FILE } from '../schema/client-metadata';
import { printableSchema } from '../schema/index';
import { printedSchema, SCHEMA_FILE } from '../schema/print';

test('schema/schema.graphql is the printed schema (run `npm run schema:print` after a change)', () => {
  expect(readFileSync(SCHEMA_FILE, 'utf8')).toBe(printedSchema());
});

test('schema/possible-types.json and schema/introspection.json are generated from it (`npm run schema:print`)', async () => {
  const metadata = await clientMetadata(printableSchema());
  expect(readFileSync(POSSIBLE_TYPES_FILE, 'utf8')).toBe(metadata.possibleTypes);
  expect(readFileSync(INTROSPECTION_FILE, 'utf8')).toBe(metadata.introspection);
});

test("the relay-runtime test's artifacts are what relay-compiler makes from the schema (`npm run schema:print`)", () => {
  const relay = spawnSync(process.execPath, [require.resolve('relay-compiler/cli.js'), '--validate'], {
    cwd: path.join(__dirname, 'graphql/relay'),
    encoding: 'utf8',
  });
  expect({ status: relay.status, output: relay.status === 0 ? '' : `${relay.stdout}${relay.stderr}` }).toEqual({ status: 0, output: '' });
});
