import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { getSchema } from '../schema/index';
import { VERSION } from '../src/version';
import { openApiDocument, printOpenApi } from './openapi';
import { extraRoutes, routes } from './routes';

/**
 * `npm run openapi:print`: rewrites rest/openapi.json, the REST contract as served at
 * /openapi.json. A test fails when the committed copy is stale.
 */
export const OPENAPI_FILE = path.join(__dirname, 'openapi.json');

export function printedOpenApi(): string {
  return printOpenApi(openApiDocument(getSchema(), [...routes, ...extraRoutes], { version: VERSION }));
}

if (require.main === module) {
  writeFileSync(OPENAPI_FILE, printedOpenApi());
  console.log(`wrote ${OPENAPI_FILE}`);
}
