import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { configDefaults, defineConfig } from 'vitest/config';
import { BaseSequencer, type TestSpecification } from 'vitest/node';
import react from '@vitejs/plugin-react';

const root = path.dirname(fileURLToPath(import.meta.url));

/**
 * Longest files first within each project, by the durations of a whole run kept in
 * scripts/vitest-durations.json. Vitest orders by its cache of the last run, which a fresh clone (CI) does
 * not have: there the files ran in the order they were found, and a 20–35 s file could start in the last
 * minute and be the run's tail. A file the table does not know (a new one) goes first: it may be long.
 * `node scripts/vitest-durations.mjs test-results/vitest.json` writes the table again after a whole run.
 * Projects stay one after the other (Vitest's order), so the service project's long-lived workers
 * (isolate: false) are handed one of its files after another and kept.
 */
class LongestFirstSequencer extends BaseSequencer {
  override async sort(files: TestSpecification[]): Promise<TestSpecification[]> {
    let seconds: Record<string, number> = {};
    try {
      seconds = JSON.parse(readFileSync(path.join(root, 'scripts', 'vitest-durations.json'), 'utf8')) as Record<string, number>;
    } catch {
      // No table: every file is new, and Vitest's order stands.
    }
    const duration = (spec: TestSpecification): number => seconds[path.relative(root, spec.moduleId).split(path.sep).join('/')] ?? Infinity;
    return [...files].sort((a, b) => {
      if (a.project.name !== b.project.name) return a.project.name < b.project.name ? -1 : 1;
      const [da, db] = [duration(a), duration(b)];
      return da === db ? 0 : db > da ? 1 : -1;
    });
  }
}

// Three projects: Node for electron/ and scripts/ (`node`) and for service/ and shared/ (`service`), with real
// servers, real files and the real keyring; happy-dom for renderer components. Tests sit next to their source as *.test.ts(x).
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
        test: {
          name: 'node',
          environment: 'node',
          // file-records checks that the process's one shared ExifTool ends with the last service: a process of its own.
          include: ['electron/**/*.test.ts', 'scripts/**/*.test.ts', 'service/assemblies/file-records.test.ts'],
          // The children tests start (service, CLI, crash suite's core) as bundles built once, not through tsx.
          globalSetup: ['scripts/vitest-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: 'forks',
        },
      },
      {
        // The local service and the shared rules, in Node as above, but the files run one after another in
        // long-lived child processes that keep the modules they loaded: a fresh process per file spent most
        // of its CPU importing the service, sharp, SQLite and the AWS SDK again (service/auth, http, files
        // and shared/: 66 → 24 s of CPU). Each test starts its own service on its own data dir, and a test
        // that changes process.env, the clock or a process listener puts it back. Core's tests (watchers,
        // keyring, a core per file) keep a process per file.
        test: {
          name: 'service',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'service/**/*.test.ts'],
          exclude: [...configDefaults.exclude, 'service/assemblies/file-records.test.ts'],
          globalSetup: ['scripts/vitest-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: 'forks',
          isolate: false,
        },
      },
      {
        plugins: [react()],
        // vmThreads (below) loads packages in a VM context, where recharts' CommonJS build cannot require
        // @reduxjs/toolkit's .mjs: the renderer's tests take recharts' ES module build, as Vite's build does.
        resolve: { alias: [{ find: /^recharts$/, replacement: 'recharts/es6/index.js' }] },
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['renderer/src/bridge/test/test-setup.ts'],
          // Each file still gets a window of its own, in a VM context of a long-lived worker: a fresh
          // happy-dom environment per file in its own worker cost ~0.8 s (the project took 94 s, now ~30 s).
          // `isolate: false` was faster still but let state leak between files (UploadView hung now and then).
          pool: 'vmThreads',
          // `npm test` runs Vitest beside Playwright's two browsers on two cores: a test that renders the whole
          // App waits for React and happy-dom, and Vitest's 5 s default then fails it on load, not on a bug.
          testTimeout: 20_000,
          server: { deps: { inline: ['recharts'] } },
        },
      },
    ],
  },
});
