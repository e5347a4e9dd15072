// Prints one closing line over both runners, `tests: N passed, N failed, N skipped`, so that CI (and a
// person) reads one number. A report that is missing counts as a failure: a runner that never ran passed nothing.
import { existsSync, readFileSync } from 'node:fs';

const [vitestFile, playwrightFile] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;

if (vitestFile && existsSync(vitestFile)) {
  const v = JSON.parse(readFileSync(vitestFile, 'utf8'));
  passed += v.numPassedTests ?? 0;
  // A file that failed without a failing test (it did not load, a hook threw) counts once; a failing
  // test counts once, not again for each describe block around it (numFailedTestSuites would).
  const brokenFiles = (v.testResults ?? []).filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed')).length;
  failed += (v.numFailedTests ?? 0) + brokenFiles;
  skipped += (v.numPendingTests ?? 0) + (v.numTodoTests ?? 0);
} else {
  console.error(`no Vitest report at ${vitestFile}`);
  failed += 1;
}

if (playwrightFile && existsSync(playwrightFile)) {
  const p = JSON.parse(readFileSync(playwrightFile, 'utf8'));
  const s = p.stats ?? {};
  passed += (s.expected ?? 0) + (s.flaky ?? 0);
  failed += s.unexpected ?? 0;
  skipped += s.skipped ?? 0;
  if ((p.errors ?? []).length > 0) failed += p.errors.length;
} else {
  console.error(`no Playwright report at ${playwrightFile}`);
  failed += 1;
}

console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
