// Records the plain closing line CI reads, "N passed, N failed" (", N skipped" when any), in
// test-results/summary.txt; scripts/test.sh prints it as the run's last line, after jest's own summary.
const fs = require('node:fs');
const path = require('node:path');

class SummaryReporter {
  onRunComplete(_contexts, results) {
    const skipped = results.numPendingTests + results.numTodoTests;
    const failed = results.numFailedTests + results.numRuntimeErrorTestSuites;
    const line = `${results.numPassedTests} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}`;
    const dir = path.resolve(__dirname, '../../test-results');
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, 'summary.txt'), `${line}\n`);
  }
}
module.exports = SummaryReporter;
