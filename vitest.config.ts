import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig, type TestProjectInlineConfiguration } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import react from '@vitejs/plugin-react';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * Longest files first within each project, by the durations of a whole run kept in
 * scripts/vitest-durations.json. Vitest orders by its cache of the last run, which a fresh clone (CI) does
 * not have: there the files ran in the order they were found, and a 20–35 s file could start in the last
 * minute and be the run's tail. A file the table does not know (a new one) goes first: it may be long.
 * `node scripts/vitest-durations.mjs test-results/vitest.json` writes the table again after a whole run.
 * The projects run one after another in PROJECT_ORDER: a long-lived worker (isolate: false) is kept only
 * while the next file in the queue is of its project, so a worker starts (and imports its packages) once per
 * project it runs: the one file with a process of its own first, beside the first Node files, and the
 * renderer's short files last, so the run ends on short files.
 */
const PROJECT_ORDER = ['own-process', 'node', 'renderer'];
class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    let seconds: Record<string, number> = {};
    try {
      seconds = JSON.parse(readFileSync(path.join(root, 'scripts', 'vitest-durations.json'), 'utf8')) as Record<string, number>;
    } catch {
      // No table: every file is new, and Vitest's order stands.
    }
    const duration = (spec: TestSpecification): number => seconds[path.relative(root, spec.moduleId).split(path.sep).join('/')] ?? Infinity;
    const rank = (spec: TestSpecification): number => PROJECT_ORDER.indexOf(spec.project.name);
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return rank(a) - rank(b);
      const [da, db] = [duration(a), duration(b)];
      return da === db ? 0 : db > da ? 1 : -1;
    });
  }
}

/** Node projects: real servers, real files, the real keyring. */
const nodeTest = {
  environment: 'node',
  // The children tests start (service, CLI, crash suite's core) as bundles built once, not through tsx.
  globalSetup: ['scripts/vitest-global-setup.ts'],
  testTimeout: 30_000,
  hookTimeout: 30_000,
  pool: 'forks',
} satisfies TestProjectInlineConfiguration['test'];

// Three projects: Node for electron/, scripts/, service/ and shared/ (`node`) and for a file that needs a
// process of its own (`own-process`), with real servers, real files and the real keyring; happy-dom for
// renderer components. Tests sit next to their source as *.test.ts(x).
export default defineConfig({
  test: {
    // Vitest's default in a run is one worker less than the cores: one worker on a 2-core CI VM, which left
    // the second core idle while files waited on servers and child processes. Most files spend their time
    // waiting, so two. Three were tried (11-29): the same wall time in CI (878 s against 876 s; the machine is
    // then CPU-bound beside Playwright, load ~13) and timer-bound tests failed at that load.
    maxWorkers: 2,
    // Longest files first (the durations of a whole run), so that no long file starts last and is the tail.
    sequence: { sequencer: LongestFirstSequencer },
    projects: [
      {
        // Core (electron/), scripts/, the local service and the shared rules: the files run one after another
        // in long-lived child processes that keep the modules they loaded: a fresh process per file spent most
        // of its CPU importing core, the service, sharp, SQLite and the AWS SDK again (core: 317 → 151 s of
        // CPU, imports 335 → 32 s summed; service/auth, http, files and shared/: 66 → 24 s). One project, not
        // one for core and one for the service: each project's worker starts and imports again, and a switch
        // of project left ~20 s with no test running. Each test starts its own core, service and servers on
        // its own data dir, and a test that changes process.env, the clock or a process listener puts it back.
        test: {
          ...nodeTest,
          name: 'node',
          include: ['electron/**/*.test.ts', 'scripts/**/*.test.ts', 'shared/**/*.test.ts', 'service/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'service/assemblies/file-records.test.ts'],
          isolate: false,
        },
      },
      {
        // file-records checks that the process's one shared ExifTool ends with the last service: a process of its own.
        test: { ...nodeTest, name: 'own-process', include: ['service/assemblies/file-records.test.ts'] },
      },
      {
        plugins: [react()],
        // The renderer's tests take recharts' ES module build, as Vite's build does (in a VM context its
        // CommonJS build could not require @reduxjs/toolkit's .mjs; kept with the threads below).
        resolve: { alias: [{ find: /^recharts$/, replacement: 'recharts/es6/index.js' }] },
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['renderer/src/bridge/test/test-setup.ts'],
          // The files run one after another in two long-lived threads that keep the packages they loaded
          // (React, Testing Library, happy-dom's one window): the setup file evaluates the app's own modules
          // again per file and empties the document, so no store, cache or page state passes from one file to
          // the next. A VM context per file (vmThreads) loaded every package again: 82 → 41 s of CPU.
          pool: 'threads',
          isolate: false,
          // `npm test` runs Vitest beside Playwright's two browsers on two cores: a test that renders the whole
          // App waits for React and happy-dom, and Vitest's 5 s default then fails it on load, not on a bug.
          testTimeout: 20_000,
          server: { deps: { inline: ['recharts'] } },
        },
      },
    ],
  },
});
