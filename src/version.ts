import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The package version: reported by GET /platform and the agent's GET /metadata. */
export const VERSION: string = (
  JSON.parse(readFileSync(path.join(__dirname, '..', 'package.json'), 'utf8')) as { version: string }
).version;
