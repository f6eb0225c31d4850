#!/usr/bin/env node
'use strict';
/* global fetch */
// `npm run compose:schema [ref]`: replaces src/apps/compose/compose-spec.json with the Compose
// Specification's schema (compose-spec/compose-spec, schema/compose-spec.json, Apache-2.0) at
// `ref` (default: main), recording where it came from in its `$comment`. Needs network access to
// GitHub; run the compose tests after it (npx jest test/apps/compose-loader.test.ts): a key the
// new schema adds is then refused or warned about by src/apps/compose/options.ts until it is mapped.
const { writeFileSync } = require('node:fs');
const path = require('node:path');

const ref = process.argv[2] || 'main';
const url = `https://raw.githubusercontent.com/compose-spec/compose-spec/${encodeURIComponent(ref)}/schema/compose-spec.json`;
const target = path.join(__dirname, '..', 'src', 'apps', 'compose', 'compose-spec.json');

async function main() {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`GET ${url}: HTTP ${response.status}`);
  const schema = await response.json();
  if (!schema.definitions?.service?.properties) throw new Error(`${url} is not the compose-spec schema`);
  const { $schema, $id, ...rest } = schema;
  const stamped = {
    $schema,
    $id,
    $comment: `The Compose Specification schema (compose-spec/compose-spec, schema/compose-spec.json at ${ref}, fetched ${new Date().toISOString().slice(0, 10)}, Apache-2.0). Update: npm run compose:schema [ref].`,
    ...rest,
  };
  writeFileSync(target, `${JSON.stringify(stamped, null, 2)}\n`);
  process.stdout.write(`wrote ${path.relative(process.cwd(), target)} from ${url}\n`);
}

main().catch((error) => {
  process.stderr.write(`compose:schema: ${error.message}\n`);
  process.exit(1);
});
