// Validates an OpenAPI document with Redocly's maintained validator (@redocly/openapi-core, its
// `recommended` rules, which include the structural check of the OpenAPI 3.1 schema). An ES
// module: jest's CommonJS runtime cannot load the package, so test/http/openapi.test.ts runs this.
import { readFileSync } from 'node:fs';
import { createConfig, lint } from '@redocly/openapi-core';

const file = process.argv[2];
const config = await createConfig({ extends: ['recommended'] });
const problems = await lint({ ref: file, config });
const { openapi } = JSON.parse(readFileSync(file, 'utf8'));
process.stdout.write(
  JSON.stringify({
    version: openapi,
    problems: problems.map((p) => ({ rule: p.ruleId, severity: p.severity, message: p.message, at: p.location?.[0]?.pointer })),
  }),
);
