import { builtinModules } from 'node:module';
import { fileURLToPath } from 'node:url';
import { build, defineConfig, type InlineConfig, type Plugin } from 'vite';

/**
 * `npm run build:electron` produces three files, each from its own build so none shares a chunk:
 *   dist/electron/main.cjs     Electron main (Node, CJS), native deps and electron left external;
 *   dist/electron/preload.cjs  the sandboxed preload: ONE CJS file, only `electron` external;
 *   dist/electron/service-child.cjs  the embedded service's own process (Electron's utilityProcess);
 *   dist/web/page-bridge.js    the browser host's page bridge (IIFE, classic script).
 */

const root = fileURLToPath(new URL('..', import.meta.url));
const at = (p: string) => fileURLToPath(new URL(`../${p}`, import.meta.url));
const nodeBuiltins = [...builtinModules, ...builtinModules.map((m) => `node:${m}`)];
// Packages with native addons (ssh2 has optional ones) stay in node_modules, loaded at run time; so does
// exiftool-vendored, which finds its bundled Perl ExifTool (exiftool-vendored.pl) next to itself.
const nativeDeps = ['better-sqlite3', 'sharp', '@napi-rs/keyring', 'ssh2', 'ssh2-sftp-client', 'cpu-features', 'exiftool-vendored', 'exiftool-vendored.pl'];
export const external = (id: string): boolean =>
  id === 'electron' ||
  id.startsWith('electron/') ||
  nodeBuiltins.includes(id) ||
  nativeDeps.some((dep) => id === dep || id.startsWith(`${dep}/`));

/** One Node bundle (CJS); also how Vitest's global setup builds the children tests start (scripts/vitest-global-setup.ts). */
export const nodeBundle = (entry: string, fileName: string, ext: (id: string) => boolean, outDir = at('dist/electron')): InlineConfig => ({
  configFile: false,
  root,
  logLevel: 'warn',
  build: {
    outDir,
    emptyOutDir: false,
    ssr: entry,
    target: 'node22',
    minify: false,
    sourcemap: true,
    rollupOptions: {
      external: ext,
      output: { format: 'cjs', entryFileNames: fileName, codeSplitting: false },
    },
  },
  // Bundle pure-JS deps into the file; only the externals above are required at runtime.
  ssr: { noExternal: true, target: 'node' },
});

const pageBridge: InlineConfig = {
  configFile: false,
  root,
  logLevel: 'warn',
  build: {
    outDir: at('dist/web'),
    emptyOutDir: false,
    target: 'es2022',
    minify: true,
    lib: { entry: at('electron/web/page/page-bridge.ts'), formats: ['iife'], name: 'AssemblylinePageBridge', fileName: () => 'page-bridge.js' },
  },
};

/** After main is built, build the preload, the service child and the page bridge (one config, one command). */
const buildTheOthers = (): Plugin => ({
  name: 'assemblyline-build-preload-and-page-bridge',
  apply: 'build',
  async closeBundle() {
    await build(nodeBundle(at('electron/preload/preload.ts'), 'preload.cjs', (id) => id === 'electron'));
    await build(nodeBundle(at('service/child-entry.ts'), 'service-child.cjs', external));
    await build(pageBridge);
  },
});

// configFile/root belong to the inline builds; this file IS the config of the first one.
const { configFile: _configFile, ...mainBuild } = nodeBundle(at('electron/main/main.ts'), 'main.cjs', external);

export default defineConfig({ ...mainBuild, plugins: [buildTheOthers()] });
