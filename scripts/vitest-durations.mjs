// Writes scripts/vitest-durations.json (each test file's seconds in a whole run) from Vitest's JSON report,
// for vitest.config.ts (LongestFirstSequencer) to start the longest files first: `node scripts/vitest-durations.mjs test-results/vitest.json`.
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = fileURLToPath(new URL('..', import.meta.url));
const [report] = process.argv.slice(2);
if (!report) {
  console.error('usage: node scripts/vitest-durations.mjs test-results/vitest.json');
  process.exit(2);
}
// The report's names are absolute, of the clone it ran in (test-results/ sits at its top).
const ranIn = path.resolve(path.dirname(report), '..');
const { testResults } = JSON.parse(readFileSync(report, 'utf8'));
const rows = testResults
  .map((file) => [path.relative(ranIn, file.name).split(path.sep).join('/'), Math.round((file.endTime - file.startTime) / 100) / 10])
  .sort((a, b) => b[1] - a[1] || (a[0] < b[0] ? -1 : 1));
writeFileSync(path.join(root, 'scripts', 'vitest-durations.json'), `${JSON.stringify(Object.fromEntries(rows), null, 1)}\n`);
console.log(`${rows.length} files`);
