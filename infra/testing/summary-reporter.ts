import type { Reporter, TestModule } from 'vitest/node';

/** Failed files named on the line; past this many, only their count (the default reporter lists them all). */
const NAMED_FILES = 5;

/**
 * Ends the run with the plain "N passed, N failed" line that CI reads. A file can fail outside its
 * tests (a beforeAll that throws, a browser that does not launch, an import that fails): its tests
 * then never ran, which is a failure, not a skip. So "failed" counts them (and a failed file with no
 * test to count counts once), "skipped" is only what was skipped on purpose (`.skip`, `.todo`, an
 * `.only` elsewhere), and the failed files are named after the counts.
 */
export default class SummaryReporter implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    console.log(`\n${summaryLine(modules)}`);
  }
}

export function summaryLine(modules: ReadonlyArray<TestModule>): string {
  let passed = 0;
  let failed = 0;
  let skipped = 0;
  const failedFiles: string[] = [];
  for (const mod of modules) {
    const fileFailed = mod.state() === 'failed';
    let failedHere = 0;
    for (const test of mod.children.allTests()) {
      const state = test.result().state;
      if (state === 'passed') passed++;
      else if (state === 'failed') failedHere++;
      else if (fileFailed && (test.options.mode === 'run' || test.options.mode === 'only')) failedHere++;
      else skipped++;
    }
    if (fileFailed) {
      failedFiles.push(mod.relativeModuleId);
      failedHere ||= 1;
    }
    failed += failedHere;
  }
  const files = failedFiles.length
    ? `; ${failedFiles.length} ${failedFiles.length === 1 ? 'file' : 'files'} failed: ${failedFiles.slice(0, NAMED_FILES).join(', ')}${failedFiles.length > NAMED_FILES ? ', …' : ''}`
    : '';
  return `Tests: ${passed} passed, ${failed} failed${skipped ? `, ${skipped} skipped` : ''}${files}`;
}
