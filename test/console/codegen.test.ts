import { expect } from '@jest/globals';
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
const CONSOLE = path.join(ROOT, 'src', 'console');

/**
 * The console's operations are typed from the committed schema: the committed types in
 * src/console/src/gql are what `npm run console:codegen` makes now. A schema change that breaks one
 * of the console's operations fails here too (codegen validates each document against the schema).
 */
test('the committed console types are what codegen makes from the schema and the operations', () => {
  const out = mkdtempSync(path.join(os.tmpdir(), 'console-codegen-'));
  const cli = path.join(ROOT, 'node_modules', '@graphql-codegen', 'cli', 'cjs', 'bin.js');
  execFileSync(process.execPath, [cli, '--config', 'codegen.ts', '--silent'], {
    cwd: CONSOLE,
    env: { ...process.env, CODEGEN_OUT: `${out}/` },
    stdio: 'pipe',
  });
  const committed = path.join(CONSOLE, 'src', 'gql');
  const files = readdirSync(out).sort();
  expect(files).toEqual(readdirSync(committed).sort());
  for (const file of files) {
    expect({ file, content: readFileSync(path.join(committed, file), 'utf8') }).toEqual({
      file,
      content: readFileSync(path.join(out, file), 'utf8'),
    });
  }
}, 60_000);
