import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';

/** Searched upwards: the compiled output in dist/src/ has no package.json of its own. */
function packageJson(): string {
  for (let dir = __dirname; ; dir = path.dirname(dir)) {
    const file = path.join(dir, 'package.json');
    if (existsSync(file)) return file;
    if (path.dirname(dir) === dir) throw new Error(`no package.json above ${__dirname}`);
  }
}

export const VERSION: string = (JSON.parse(readFileSync(packageJson(), 'utf8')) as { version: string }).version;
