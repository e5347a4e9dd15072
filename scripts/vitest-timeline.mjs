// Prints where a whole Vitest run's wall time went, from its JSON report: `node scripts/vitest-timeline.mjs
// test-results/vitest.json`. The seconds no test file was running and those only one was (of two workers),
// each project's span, the gaps, and the tail (what ran alone at the end). A file's span is its first test's
// start to its last test's end (the report has no more): its imports and beforeAll count as a gap.
import { readFileSync } from 'node:fs';
import path from 'node:path';

const [report, workersArg] = process.argv.slice(2);
if (!report) {
  console.error('usage: node scripts/vitest-timeline.mjs test-results/vitest.json [workers=2]');
  process.exit(2);
}
const workers = Number(workersArg ?? 2);
// The report's names are absolute, of the clone it ran in: from its first top folder of tests on.
const relative = (name) => name.split(path.sep).join('/').replace(/^.*?\/(?=(electron|renderer|scripts|service|shared)\/)/, '');
const { startTime: runStart, testResults } = JSON.parse(readFileSync(report, 'utf8'));
// The projects of vitest.config.ts, by path.
const projectOf = (file) =>
  file === 'service/assemblies/file-records.test.ts' ? 'own-process' : file.startsWith('renderer/') ? 'renderer' : 'node';
const files = testResults
  .map((result) => {
    const name = relative(result.name);
    return { name, project: projectOf(name), start: (result.startTime - runStart) / 1000, end: (result.endTime - runStart) / 1000 };
  })
  .sort((a, b) => a.start - b.start);
const end = Math.max(...files.map((file) => file.end));
const s = (seconds) => `${seconds.toFixed(1)} s`;

// Seconds with 0, 1, … files running, from the report's start (global setup included) to the last file's end.
const events = files.flatMap((file) => [[file.start, 1], [file.end, -1]]).sort((a, b) => a[0] - b[0] || a[1] - b[1]);
const byCount = new Map();
const gaps = [];
const alone = [];
let [at, running] = [0, 0];
for (const [time, delta] of events) {
  byCount.set(running, (byCount.get(running) ?? 0) + (time - at));
  if (running === 0 && time - at >= 2) gaps.push([at, time]);
  if (running === 1 && time - at >= 10) alone.push([at, time, files.find((file) => file.start <= at && file.end >= time)?.name]);
  [at, running] = [time, running + delta];
}
console.log(`${files.length} files, ${s(end)} from the report's start to the last file's end (first file at ${s(files[0].start)})`);
for (const count of [...byCount.keys()].sort()) {
  const label = count === 0 ? 'no file running' : count < workers ? `${count} file${count > 1 ? 's' : ''} running` : `${count} files running`;
  console.log(`  ${label.padEnd(20)} ${s(byCount.get(count)).padStart(9)}`);
}
console.log('projects (first start → last end):');
for (const project of ['own-process', 'node', 'renderer']) {
  const own = files.filter((file) => file.project === project);
  if (own.length === 0) continue;
  const busy = own.reduce((sum, file) => sum + file.end - file.start, 0);
  console.log(`  ${project.padEnd(12)} ${s(Math.min(...own.map((f) => f.start))).padStart(8)} → ${s(Math.max(...own.map((f) => f.end))).padStart(8)}  ${String(own.length).padStart(3)} files, ${s(busy)} of file spans`);
}
const ended = (time) => files.filter((file) => Math.abs(file.end - time) < 0.01).map((file) => file.name);
const started = (time) => files.filter((file) => Math.abs(file.start - time) < 0.01).map((file) => file.name);
console.log('gaps of ≥ 2 s with no file running:');
for (const [from, to] of gaps) console.log(`  ${s(from).padStart(8)} → ${s(to).padStart(8)} (${s(to - from)}) after ${ended(from).join(', ') || 'the start'}, before ${started(to).join(', ')}`);
console.log('stretches of ≥ 10 s with one file running:');
for (const [from, to, name] of alone) console.log(`  ${s(from).padStart(8)} → ${s(to).padStart(8)} (${s(to - from)}) ${name}`);
// The tail: the files still running once the last file started.
const lastStart = Math.max(...files.map((file) => file.start));
console.log(`tail: the last file started at ${s(lastStart)}; the ten files that ended last:`);
for (const file of [...files].sort((a, b) => b.end - a.end).slice(0, 10)) console.log(`  ${s(file.start).padStart(8)} → ${s(file.end).padStart(8)} (${s(file.end - file.start)}) ${file.name}`);
