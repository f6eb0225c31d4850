import { expect } from '@jest/globals';
import { execFile } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

interface Results {
  numPassedTests: number;
  numFailedTests: number;
  numPendingTests: number;
  numTodoTests: number;
  numRuntimeErrorTestSuites: number;
}
interface Reporter {
  onRunComplete(contexts: unknown, results: Results): void;
  getLastError(): Error | undefined;
}
// The reporter is plain CommonJS, loaded by jest itself from package.json's `reporters`.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const SummaryReporter = require('./summary-reporter.js') as new (config: unknown, options: { write: (line: string) => void }) => Reporter;

const REPORTER = path.join(__dirname, 'summary-reporter.js');
const JEST = require.resolve('jest/bin/jest');

function results(counts: Partial<Results>): Results {
  return { numPassedTests: 0, numFailedTests: 0, numPendingTests: 0, numTodoTests: 0, numRuntimeErrorTestSuites: 0, ...counts };
}

/** Runs `fn` with CI set (or unset) in this process's environment, where the reporter reads it. */
function withCi<T>(ci: string | undefined, fn: () => T): T {
  const saved = process.env.CI;
  if (ci === undefined) delete process.env.CI;
  else process.env.CI = ci;
  try {
    return fn();
  } finally {
    if (saved === undefined) delete process.env.CI;
    else process.env.CI = saved;
  }
}

function report(ci: string | undefined, counts: Partial<Results>): { lines: string[]; error: Error | undefined } {
  const lines: string[] = [];
  const reporter = new SummaryReporter({}, { write: (line) => lines.push(line) });
  withCi(ci, () => reporter.onRunComplete([], results(counts)));
  return { lines, error: reporter.getLastError() };
}

describe('the summary reporter', () => {
  test('prints the closing line CI reads; outside CI a skip is only counted', () => {
    expect(
      report(undefined, { numPassedTests: 5, numFailedTests: 1, numRuntimeErrorTestSuites: 1, numPendingTests: 2, numTodoTests: 1 }),
    ).toEqual({ lines: ['5 passed, 2 failed, 3 skipped\n'], error: undefined });
  });

  test('with CI=true a skipped or todo test is an error of the reporter, which fails the run', () => {
    expect(report('true', { numPassedTests: 5, numPendingTests: 1 })).toEqual({
      lines: ['5 passed, 0 failed, 1 skipped\n'],
      error: new Error('1 skipped test: with CI=true every test must run, so the run fails'),
    });
    expect(report('true', { numPassedTests: 5, numTodoTests: 2 }).error).toEqual(
      new Error('2 skipped tests: with CI=true every test must run, so the run fails'),
    );
    expect(report('true', { numPassedTests: 5 })).toEqual({ lines: ['5 passed, 0 failed, 0 skipped\n'], error: undefined });
  });

  /**
   * jest itself, as .ci/run runs it (`npm test` under `set -e`): the exit status is what fails CI.
   * A throwaway project in a temp dir with one passing and one skipped test, and this reporter.
   */
  describe('a real jest run', () => {
    let dir: string;
    beforeAll(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'reporter-run-'));
      const skip = ['test', 'skip'].join('.');
      writeFileSync(path.join(dir, 'probe.test.js'), `test('runs', () => {});\n${skip}('does not run', () => {});\n`);
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const run = (ci: string | undefined) =>
      new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
        const env: NodeJS.ProcessEnv = { ...process.env, REQUIRE_DOCKER: '', REQUIRE_REGISTRY: '', REQUIRE_BROWSER: '' };
        delete env.CI;
        if (ci !== undefined) env.CI = ci;
        const config = JSON.stringify({ rootDir: dir, testMatch: ['**/*.test.js'], transform: {}, reporters: ['default', REPORTER] });
        execFile(process.execPath, [JEST, '--config', config], { cwd: dir, env }, (error, stdout, stderr) =>
          resolve({ code: error ? (error.code as number) : 0, stdout, stderr }),
        );
      });

    test('with CI=true a skipped test makes jest exit 1; without CI the same run passes', async () => {
      const ci = await run('true');
      expect({ code: ci.code, last: ci.stdout.trim().split('\n').pop() }).toEqual({ code: 1, last: '1 passed, 0 failed, 1 skipped' });
      expect(ci.stderr).toContain('1 skipped test: with CI=true every test must run, so the run fails');
      const local = await run(undefined);
      expect({ code: local.code, last: local.stdout.trim().split('\n').pop() }).toEqual({ code: 0, last: '1 passed, 0 failed, 1 skipped' });
    });
  });
});
