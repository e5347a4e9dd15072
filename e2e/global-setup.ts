import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { repoPath } from './fixtures/paths';

/** The specs run the built app: build once when the build is missing (`npm test` builds beforehand). */
export default function globalSetup(): void {
  const built = [repoPath('dist/renderer/index.html'), repoPath('dist/web/page-bridge.js'), repoPath('dist/electron/service-child.cjs')].every((f) => existsSync(f));
  if (built) return;
  const result = spawnSync('npm', ['run', '-s', 'build'], { cwd: repoPath('.'), stdio: 'inherit' });
  if (result.status !== 0) throw new Error('npm run build failed; the end-to-end tests need the built app.');
}
