import { defineConfig } from 'vite';
import react from '@vitejs/plugin-react';
// eslint-disable-next-line no-restricted-imports -- this build config runs in Node; the page never imports it
import { fileURLToPath } from 'node:url';

// The renderer is built to static files that both hosts serve: relative asset URLs (base './') work
// from Electron's file/protocol URLs and from the browser host's loopback server alike.
export default defineConfig({
  root: fileURLToPath(new URL('.', import.meta.url)),
  base: './',
  plugins: [react()],
  build: {
    outDir: fileURLToPath(new URL('../dist/renderer', import.meta.url)),
    emptyOutDir: true,
    // Keep every asset a file: the CSP allows data: only for images, and no inline scripts or styles.
    assetsInlineLimit: 0,
    modulePreload: { polyfill: false },
  },
});
