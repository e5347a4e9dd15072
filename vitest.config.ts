import { defineConfig } from 'vitest/config';
import react from '@vitejs/plugin-react';

// Two projects: Node for shared/, service/ and electron/ (real servers, real files, real keyring),
// happy-dom for renderer components. Tests sit next to their source as *.test.ts(x).
export default defineConfig({
  test: {
    // Vitest's default in a run is one worker less than the cores: one worker on a 2-core CI VM, which left
    // the second core idle while files waited on servers and child processes. Two at once halves that.
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'node',
          environment: 'node',
          include: ['shared/**/*.test.ts', 'service/**/*.test.ts', 'electron/**/*.test.ts', 'scripts/**/*.test.ts'],
          // The children tests start (service, CLI, crash suite's core) as bundles built once, not through tsx.
          globalSetup: ['scripts/vitest-global-setup.ts'],
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: 'forks',
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
          server: { deps: { inline: ['recharts'] } },
        },
      },
    ],
  },
});
