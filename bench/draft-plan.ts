/**
 * The pre-flight plan of a 100,000-file draft (`npx tsx --expose-gc bench/draft-plan.ts`): how long
 * `drafts:plan` takes per batch mode, against a reference measured in the same run — the engine's own
 * batching (transfers/batching.ts placeFile) over the same files, which the plan must run anyway so both
 * count the same Assemblies. Also the draft's heap per file.
 * Goal: the plan of 100,000 files in < 200 ms.
 */
import { DEFAULT_TRANSFER_SETTINGS, type TransferSettings } from '../shared/ipc/transfer-models';
import { DraftList } from '../electron/core/drafts/draft-list';
import { buildPlan } from '../electron/core/drafts/plan';
import { emptyBatcher, placeFile } from '../electron/core/transfers/batching';

const FILES = Number(process.env.BENCH_FILES ?? 100_000);
const ROUNDS = Number(process.env.BENCH_ROUNDS ?? 5);

function makeDraft(files: number): DraftList {
  const list = new DraftList();
  const root = { handle: 'fh_bench', base: '/media/card' };
  for (let i = 0; i < files; i += 1) {
    const folder = `shoot/day-${String(i % 200).padStart(3, '0')}`;
    const rel = `${folder}/${i % 97 === 0 ? `._IMG_${i}.jpg` : `IMG_${String(i).padStart(6, '0')}.jpg`}`;
    list.add(root, rel, rel, 1_000 + (i % 5_000) * 1_000, 0);
  }
  return list;
}

const best = (run: () => void) => {
  let min = Infinity;
  for (let r = 0; r < ROUNDS; r += 1) {
    const start = performance.now();
    run();
    min = Math.min(min, performance.now() - start);
  }
  return min;
};

global.gc?.();
const heapBefore = process.memoryUsage().heapUsed;
const draft = makeDraft(FILES);
global.gc?.();
const heapAfter = process.memoryUsage().heapUsed;

const reference = best(() => {
  let state = emptyBatcher();
  const batching = { mode: 'every-n' as const, batchMaxFiles: 500, batchMaxBytes: DEFAULT_TRANSFER_SETTINGS.batchMaxBytes };
  draft.forEach((relativePath, size) => (state = placeFile(state, { relativePath, size }, batching, { maxSize: null, maxNumberOfFiles: 500 }).state));
});
console.log(`draft of ${FILES.toLocaleString('en-US')} files: ~${Math.round((heapAfter - heapBefore) / FILES)} bytes of heap per file${global.gc ? '' : ' (run with --expose-gc for a steadier figure)'}`);
console.log(`reference (the engine's batching alone, every-n): ${reference.toFixed(1)} ms`);
for (const mode of ['every-n', 'per-folder', 'per-drop'] as const) {
  const settings: TransferSettings = { ...DEFAULT_TRANSFER_SETTINGS, batchMode: mode, skip: { ...DEFAULT_TRANSFER_SETTINGS.skip, exclude: ['*.tmp', 'proxy/**'] } };
  const input = { files: { forEach: (v: (p: string, s: number, i: number) => void) => draft.forEach(v), pathAt: (i: number) => draft.pathOf(draft.at(i)) }, settings, limits: { maxSize: null, maxNumberOfFiles: 500 }, unreadable: 0 };
  const ms = best(() => buildPlan(input));
  const plan = buildPlan(input);
  console.log(`plan ${mode.padEnd(10)} ${ms.toFixed(1).padStart(7)} ms  = ${(ms / reference).toFixed(1)} × reference  (${plan.files.toLocaleString('en-US')} files, ${plan.assemblies} Assemblies)  goal < 200 ms: ${ms < 200 ? 'met' : 'MISSED'}`);
}
