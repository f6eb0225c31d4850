import { expect } from '@jest/globals';
import { execFile } from 'node:child_process';
import path from 'node:path';

const ROOT = path.join(__dirname, '..', '..');
const ESLINT = path.join(ROOT, 'node_modules', 'eslint', 'bin', 'eslint.js');

interface LintResult {
  messages: { ruleId: string | null; severity: number; line: number }[];
}

/**
 * The eslint CLI, as `npm run lint` runs it (the project's eslint.config.mjs), on `text` given as
 * this test file's text (type-aware linting needs a file the project has).
 */
function lint(text: string): Promise<LintResult['messages']> {
  return new Promise((resolve, reject) => {
    const child = execFile(
      process.execPath,
      [ESLINT, '--format', 'json', '--stdin', '--stdin-filename', __filename],
      { cwd: ROOT },
      (error, stdout) => {
        // eslint exits 1 when it reports errors; its JSON is on stdout either way.
        try {
          resolve((JSON.parse(stdout) as LintResult[])[0].messages);
        } catch {
          reject(error ?? new Error(stdout));
        }
      },
    );
    child.stdin!.end(text);
  });
}

/** `npm run lint` (a CI gate before any test runs) refuses focused and disabled tests in committed test files. */
describe('lint: no focused or skipped tests are committed', () => {
  // Written as joins so that this file itself has none of them.
  const calls = [
    ['test', 'only'],
    ['it', 'only'],
    ['describe', 'only'],
    ['test', 'skip'],
    ['it', 'skip'],
    ['describe', 'skip'],
  ].map((parts) => parts.join('.'));
  const bare = ['fit', 'fdescribe', 'xit', 'xtest', 'xdescribe'];

  test('each of them is an error; a plain test is not', async () => {
    const probes = ['test', ...calls, ...bare];
    const messages = await lint(probes.map((call) => `${call}('probe', () => {});\n`).join(''));
    const found = messages.filter((m) => m.ruleId?.startsWith('jest/')).map((m) => [probes[m.line - 1], m.ruleId, m.severity]);
    expect(found).toEqual([
      ['test.only', 'jest/no-focused-tests', 2],
      ['it.only', 'jest/no-focused-tests', 2],
      ['describe.only', 'jest/no-focused-tests', 2],
      ['test.skip', 'jest/no-disabled-tests', 2],
      ['it.skip', 'jest/no-disabled-tests', 2],
      ['describe.skip', 'jest/no-disabled-tests', 2],
      ['fit', 'jest/no-focused-tests', 2],
      ['fdescribe', 'jest/no-focused-tests', 2],
      ['xit', 'jest/no-disabled-tests', 2],
      ['xtest', 'jest/no-disabled-tests', 2],
      ['xdescribe', 'jest/no-disabled-tests', 2],
    ]);
  });
});
