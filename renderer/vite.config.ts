import { defineConfig, type Plugin } from 'vite';
import react from '@vitejs/plugin-react';
// eslint-disable-next-line no-restricted-imports -- this build config runs in Node; the page never imports it
import { fileURLToPath } from 'node:url';

/**
 * Chunks the page loads while idle after start and then runs most of (issue 27: the Transfers view, where
 * Start leads; features/transfers/view-loader.ts). V8's explicit compile hint at the top of the file makes
 * Chromium compile every function of the chunk as it loads, instead of each on its first call: the first
 * Upload → Transfers switch compiled ~17 ms of the view's functions inside its own tasks.
 */
const EAGER_CHUNKS = new Set(['TransfersView']);

const eagerCompileHints = (): Plugin => ({
  name: 'assemblyline-eager-compile-hints',
  apply: 'build',
  generateBundle(_options, bundle) {
    for (const chunk of Object.values(bundle)) {
      if (chunk.type === 'chunk' && EAGER_CHUNKS.has(chunk.name)) chunk.code = `//# allFunctionsCalledOnLoad\n${chunk.code}`;
    }
  },
});

// The renderer is built to static files that both hosts serve: relative asset URLs (base './') work
// from Electron's file/protocol URLs and from the browser host's loopback server alike.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react(), eagerCompileHints()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // Keep every asset a file: the CSP allows data: only for images, and no inline scripts or styles.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
