// Vitest's global setup for the Node project. The child processes tests start — the embedded service's
// child (core's default), the service CLI (`npm run service`) and the crash suite's core — run as bundles
// built with the build Electron ships (electron/vite.config.ts), not through tsx: a service child through
// tsx costs ~2 s of CPU to start, its bundle ~0.5 s, and a whole run starts well over a hundred.
// The bundles are kept by a hash of the sources they are built from, so a run on unchanged sources (the
// next `npx vitest run <file>`) builds nothing. The folder goes to the tests as ASSEMBLYLINE_TEST_BUNDLES
// (honoured only with NODE_ENV=test, which Vitest sets); without it (bench/, scripts) the same helpers run
// the sources through tsx.
import { createHash } from 'node:crypto';
import { mkdir, mkdtemp, readdir, readFile, rename, rm, stat } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { external, nodeBundle } from '../electron/vite.config';
import { TEST_BUNDLES, TEST_BUNDLES_ENV } from '../shared/testing/test-bundles';

const root = fileURLToPath(new URL('..', import.meta.url));
/** What the bundles are made of: the sources (tests aside), the build's config and the locked dependencies. */
const INPUTS = ['service', 'shared', 'electron/core', 'electron/vite.config.ts', 'package-lock.json'];
const DAY_MS = 24 * 3600_000;

async function files(entry: string): Promise<string[]> {
  const full = path.join(root, entry);
  if (!(await stat(full)).isDirectory()) return [entry];
  const out: string[] = [];
  for (const child of await readdir(full, { withFileTypes: true })) {
    const relative = path.join(entry, child.name);
    if (child.isDirectory()) out.push(...(await files(relative)));
    else if (!/\.test\.tsx?$/.test(child.name)) out.push(relative);
  }
  return out;
}

async function inputsHash(): Promise<string> {
  const hash = createHash('sha256');
  for (const file of (await Promise.all(INPUTS.map(files))).flat().sort()) hash.update(file).update('\0').update(await readFile(path.join(root, file))).update('\0');
  return hash.digest('hex').slice(0, 16);
}

/** Builds the bundles unless a folder of the same sources is there; returns the folder. */
export async function buildTestBundles(): Promise<string> {
  // Inside node_modules, so that the bundles' run-time requires (native addons) resolve as from the repo.
  const cache = path.join(root, 'node_modules', '.cache', 'assemblyline-test-bundles');
  await mkdir(cache, { recursive: true });
  const dir = path.join(cache, await inputsHash());
  const built = await stat(dir).then(() => true, () => false);
  if (!built) {
    // Built aside, then moved in whole: a run at the same time never sees half a folder.
    const fresh = await mkdtemp(path.join(cache, 'building-'));
    await Promise.all(Object.entries(TEST_BUNDLES).map(([file, entry]) => build(nodeBundle(path.join(root, entry), file, external, fresh))));
    await rename(fresh, dir).catch(async () => rm(fresh, { recursive: true, force: true }));
  }
  // Bundles of sources long changed go.
  for (const old of await readdir(cache)) {
    const at = path.join(cache, old);
    if (at !== dir && Date.now() - (await stat(at)).mtimeMs > DAY_MS) await rm(at, { recursive: true, force: true });
  }
  return dir;
}

// Each Node project runs this global setup, one after the other in Vitest's process, before any test: the
// first builds (or finds) the bundles and the others take its folder instead of hashing the sources again.
const once = Symbol.for('assemblyline.testBundles');
type WithBundles = typeof globalThis & { [once]?: Promise<string> };

export default async function setup(): Promise<void> {
  process.env[TEST_BUNDLES_ENV] = await ((globalThis as WithBundles)[once] ??= buildTestBundles());
}

// `tsx scripts/vitest-global-setup.ts`: builds them ahead, as scripts/test.sh does beside the app's build.
if (process.argv[1] && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  console.log(await buildTestBundles());
}
