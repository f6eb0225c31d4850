const { writeSync } = require('node:fs');

/**
 * The closing line CI reads, `N passed, N failed, N skipped`, and, under CI=true, the error that
 * fails a run with a skipped test: in CI every real part is there (REQUIRE_*), so a skip there
 * hides a test that did not run.
 */
function summarize(results, env) {
  const skipped = results.numPendingTests + results.numTodoTests;
  const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
  const line = `${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`;
  const error =
    env.CI === 'true' && skipped > 0
      ? new Error(`${skipped} skipped test${skipped === 1 ? '' : 's'}: with CI=true every test must run, so the run fails`)
      : undefined;
  return { line, error };
}

// CI reads a closing line `N passed, N failed[, N skipped]`; jest's own summary is not in that
// form. Written at exit so that it comes after jest's summary, as the run's last line.
class SummaryReporter {
  /** `options.write` replaces the write at exit (the reporter's own test). */
  constructor(_globalConfig, options = {}) {
    this.write = options.write ?? ((line) => process.once('exit', () => writeSync(1, line)));
    this.error = undefined;
  }

  onRunComplete(_contexts, results) {
    const { line, error } = summarize(results, process.env);
    this.error = error;
    if (error) writeSync(2, `\n${error.message}\n`);
    this.write(line);
  }

  // jest marks the run failed (exit status 1) when a reporter has an error after onRunComplete.
  getLastError() {
    return this.error;
  }
}
module.exports = SummaryReporter;
module.exports.summarize = summarize;
