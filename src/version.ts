import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/**
 * The nearest package.json above this file: the checkout's from src/ (tsx, jest) and from
 * dist/src/ (the compiled output, which has no package.json of its own).
 */
function packageJson(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return file;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${__dirname}`);
  }
}

/** The package version: reported by GET /platform and the agent's GET /metadata. */
export const VERSION: string = (JSON.parse(readFileSync(packageJson(), 'utf8')) as { version: string }).version;
