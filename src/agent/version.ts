import { readFileSync } from 'node:fs';
import path from 'node:path';

/** The package version, which is the agent's version in GET /metadata. */
export const agentVersion: string = (
  JSON.parse(readFileSync(path.resolve(__dirname, '../../package.json'), 'utf8')) as { version: string }
).version;
