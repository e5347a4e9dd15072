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
          testTimeout: 30_000,
          hookTimeout: 30_000,
          pool: 'forks',
        },
      },
      {
        plugins: [react()],
        test: {
          name: 'renderer',
          environment: 'happy-dom',
          include: ['renderer/**/*.test.{ts,tsx}'],
          setupFiles: ['renderer/src/bridge/test/test-setup.ts'],
        },
      },
    ],
  },
});
