// Prints one closing line over both runners, `tests: N passed, N failed, N skipped`, so that CI (and a
// person) reads one number. A report that is missing counts as a failure: a runner that never ran passed nothing.
import { existsSync, readFileSync } from 'node:fs';
import { relative } from 'node:path';

const [vitestFile, playwrightFile, vitestLog] = process.argv.slice(2);
let passed = 0;
let failed = 0;
let skipped = 0;
// Names of what failed, printed just above the closing line: CI shows only the tail of a run's output.
const failures = [];
const firstLine = (text) => String(text ?? '').split('\n').find((l) => l.trim() !== '')?.trim().slice(0, 240) ?? '';

if (vitestFile && existsSync(vitestFile)) {
  const v = JSON.parse(readFileSync(vitestFile, 'utf8'));
  passed += v.numPassedTests ?? 0;
  // A file that failed without a failing test (it did not load, a hook threw) counts once; a failing
  // test counts once, not again for each describe block around it (numFailedTestSuites would).
  const brokenFiles = (v.testResults ?? []).filter((f) => f.status === 'failed' && !(f.assertionResults ?? []).some((a) => a.status === 'failed')).length;
  failed += (v.numFailedTests ?? 0) + brokenFiles;
  for (const file of v.testResults ?? []) {
    const where = relative(process.cwd(), file.name ?? '');
    const failing = (file.assertionResults ?? []).filter((a) => a.status === 'failed');
    for (const a of failing) failures.push(`vitest ${where} › ${a.fullName ?? a.title}: ${firstLine(a.failureMessages?.[0])}`);
    if (file.status === 'failed' && failing.length === 0) failures.push(`vitest ${where}: ${firstLine(file.message)}`);
  }
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
  const walk = (suite, titles) => {
    for (const spec of suite.specs ?? []) {
      for (const t of spec.tests ?? []) {
        if (t.status !== 'unexpected') continue;
        const last = (t.results ?? []).at(-1);
        failures.push(`playwright ${spec.file}:${spec.line} › ${[...titles, spec.title].join(' › ')}: ${firstLine(last?.error?.message)}`);
      }
    }
    for (const child of suite.suites ?? []) walk(child, child.title && !child.title.endsWith('.ts') ? [...titles, child.title] : titles);
  };
  for (const suite of p.suites ?? []) walk(suite, []);
  for (const e of p.errors ?? []) failures.push(`playwright: ${firstLine(e.message)}`);
} else {
  console.error(`no Playwright report at ${playwrightFile}`);
  failed += 1;
}

const plain = (text) => text.replace(new RegExp(`${String.fromCharCode(27)}\\[[0-9;]*m`, 'g'), '');

/**
 * The lines an assertion's diff marks as changed, for each failed Vitest test in its log: the JSON report
 * has only the message ("expected { … } to deeply equal { … }"), which does not say what differed.
 */
function changedLines(log, perFailure = 12) {
  const blocks = [];
  let current = null;
  for (const line of plain(log).split('\n')) {
    if (/^ FAIL /.test(line)) {
      current = { title: line.trim(), lines: [] };
      blocks.push(current);
    } else if (current && /^([-+] {3}|Expected: |Received: )/.test(line) && current.lines.length < perFailure) {
      current.lines.push(line);
    }
  }
  return blocks.filter((b) => b.lines.length > 0);
}

if (failures.length > 0) {
  // Colour codes out, so the line reads the same in a log file.
  console.log(`failed:\n${failures.map((f) => `  ${plain(f)}`).join('\n')}`);
  if (vitestLog && existsSync(vitestLog)) {
    for (const block of changedLines(readFileSync(vitestLog, 'utf8'))) console.log(`  ${block.title}\n${block.lines.map((l) => `    ${l}`).join('\n')}`);
  }
}
console.log(`tests: ${passed} passed, ${failed} failed, ${skipped} skipped`);
process.exit(failed > 0 || passed === 0 ? 1 : 0);
