const { writeSync } = require('node:fs');

// CI reads a closing line `N passed, N failed[, N skipped]`; jest's own summary is not in that
// form. Written at exit so that it comes after jest's summary, as the run's last line.
class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${results.numPassedTests} passed, ${failed} failed, ${skipped} skipped\n`;
    process.once('exit', () => writeSync(1, line));
  }
}
module.exports = SummaryReporter;
