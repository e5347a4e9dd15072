// Vitest's global setup for the Node project. The child processes tests start — the embedded service's
// child (core's default), the service CLI (`npm run service`) and the crash suite's core — run as bundles
// built once per run with the build Electron ships (electron/vite.config.ts), not through tsx: a service
// child through tsx costs ~2 s of CPU to start, its bundle ~0.5 s, and a run starts well over a hundred.
// The folder goes to the tests as ASSEMBLYLINE_TEST_BUNDLES (honoured only with NODE_ENV=test, which
// Vitest sets); without it (bench/, scripts) the same helpers run the sources through tsx.
import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'vite';
import { external, nodeBundle } from '../electron/vite.config';
import { TEST_BUNDLES, TEST_BUNDLES_ENV } from '../shared/testing/test-bundles';

const root = fileURLToPath(new URL('..', import.meta.url));

export default async function setup(): Promise<() => Promise<void>> {
  // Inside node_modules, so that the bundles' run-time requires (native addons) resolve as from the repo.
  const cache = path.join(root, 'node_modules', '.cache');
  await mkdir(cache, { recursive: true });
  const dir = await mkdtemp(path.join(cache, 'assemblyline-test-bundles-'));
  await Promise.all(Object.entries(TEST_BUNDLES).map(([file, entry]) => build(nodeBundle(path.join(root, entry), file, external, dir))));
  process.env[TEST_BUNDLES_ENV] = dir;
  return async () => {
    await rm(dir, { recursive: true, force: true });
  };
}
