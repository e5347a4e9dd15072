// The installers' configuration (electron-builder.yml), checked with electron-builder's own validation:
// no Electron runtime can be fetched here, so this is how `npm test` knows `npm run dist` would start.
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { getConfig, validateConfiguration } from 'app-builder-lib/out/util/config/config';
import { DebugLogger } from 'builder-util';
import sharp from 'sharp';
import { afterAll, describe, expect, it } from 'vitest';
import { LINUX_SIZES, makeIcons } from './make-icons';

const root = path.resolve(import.meta.dirname, '..');
const load = () => getConfig(root, path.join(root, 'electron-builder.yml'), null);
let dir = '';
afterAll(async () => {
  if (dir) await rm(dir, { recursive: true, force: true });
});

describe('electron-builder configuration', () => {
  it("passes electron-builder's validation, and that validation does reject a bad key", async () => {
    const config = await load();
    await expect(validateConfiguration(config, new DebugLogger(false))).resolves.toBeUndefined();
    await expect(validateConfiguration({ ...config, nsis: { ...config.nsis, oneClik: false } } as never, new DebugLogger(false))).rejects.toThrow(/configuration\.nsis/);
  });

  it('builds an AppImage and a deb, a hardened and notarized dmg, and an NSIS installer', async () => {
    const config = await load();
    expect(config.linux?.target).toEqual(['AppImage', 'deb']);
    expect(config.mac?.target).toEqual(['dmg']);
    expect(config.win?.target).toEqual(['nsis']);
    expect(config.mac).toMatchObject({ hardenedRuntime: true, notarize: true, entitlements: 'build/entitlements.mac.plist' });
    // The deb names what the local service runs: ffmpeg, and the Secret Service client for the keyring.
    expect(config.deb?.depends).toEqual(expect.arrayContaining(['ffmpeg', 'libsecret-1-0', 'perl']));
    const plist = await readFile(path.join(root, 'build/entitlements.mac.plist'), 'utf8');
    expect([...plist.matchAll(/<key>([^<]+)<\/key>/g)].map((m) => m[1])).toEqual(['com.apple.security.cs.allow-jit', 'com.apple.security.cs.disable-library-validation']);
  });

  it('sets the fuses: no run-as-node, NODE_OPTIONS or inspector; encrypted cookies; the app only from a validated asar', async () => {
    expect((await load()).electronFuses).toEqual({
      runAsNode: false,
      enableCookieEncryption: true,
      enableNodeOptionsEnvironmentVariable: false,
      enableNodeCliInspectArguments: false,
      enableEmbeddedAsarIntegrityValidation: true,
      onlyLoadAppFromAsar: true,
      loadBrowserProcessSpecificV8Snapshot: false,
      grantFileProtocolExtraPrivileges: false,
    });
  });

  it('keeps native addons out of the asar and ships only the bundles', async () => {
    const config = await load();
    expect(config.asarUnpack).toEqual(expect.arrayContaining(['node_modules/sharp/**', 'node_modules/@img/**', '**/*.node', 'node_modules/exiftool-vendored.pl/**']));
    expect(config.files).toEqual([{ filter: ['dist/electron/**', 'dist/renderer/**', 'package.json', '!**/*.map'] }]);
    const pkg = JSON.parse(await readFile(path.join(root, 'package.json'), 'utf8')) as { main: string; scripts: Record<string, string> };
    expect(pkg.main).toBe('dist/electron/main.cjs');
    expect(pkg.scripts.dist).toMatch(/npm run build.*make-icons.*electron-builder/);
  });

  it('makes every icon size from the one SVG', async () => {
    dir = await mkdtemp(path.join(tmpdir(), 'al-icons-'));
    const files = await makeIcons(path.join(root, 'build/icon.svg'), dir);
    expect(files).toHaveLength(LINUX_SIZES.length + 1);
    for (const size of LINUX_SIZES) {
      const meta = await sharp(path.join(dir, 'icons', `${size}x${size}.png`)).metadata();
      expect([meta.width, meta.height, meta.format]).toEqual([size, size, 'png']);
    }
    expect((await sharp(path.join(dir, 'icon.png')).metadata()).width).toBe(1024);
  });
});
