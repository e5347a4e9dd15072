#!/usr/bin/env node
// `npm run screenshots`: takes the pictures the docs show from the real app — the end-to-end specs that
// take them (docs/screenshots/screenshots.json), run against a fresh build with
// ASSEMBLYLINE_UPDATE_SCREENSHOTS=1, which saves those pictures into docs/screenshots/ (e2e/fixtures/paths.ts).
// It fails when a listed picture was not taken again, so the docs never keep one that no spec takes.
import { spawnSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const list = JSON.parse(readFileSync(join(root, 'docs/screenshots/screenshots.json'), 'utf8'));
const specs = [...new Set(Object.values(list))];

const run = (command, args, env = process.env) => {
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', env });
  if (result.status !== 0) {
    console.error(`screenshots: \`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal}).`);
    process.exit(1);
  }
};

const started = Date.now();
run('npm', ['run', '-s', 'build']);
// A keyring of its own (scripts/with-keyring.sh), as `npm test` uses.
const keyringHome = mkdtempSync(join(tmpdir(), 'assemblyline-keyring-'));
try {
  run('bash', ['scripts/with-keyring.sh', 'npx', 'playwright', 'test', '--config', 'e2e/playwright.config.ts', '--project=browser-host', ...specs], {
    ...process.env,
    ASSEMBLYLINE_UPDATE_SCREENSHOTS: '1',
    ASSEMBLYLINE_KEYRING_HOME: keyringHome,
  });
} finally {
  rmSync(keyringHome, { recursive: true, force: true });
}
const stale = Object.keys(list).filter((name) => {
  try {
    return statSync(join(root, 'docs/screenshots', name)).mtimeMs < started;
  } catch {
    return true;
  }
});
if (stale.length > 0) {
  console.error(`screenshots: not taken by their spec: ${stale.join(', ')} (docs/screenshots/screenshots.json names the spec).`);
  process.exit(1);
}
console.log(`screenshots: ${Object.keys(list).length} pictures in docs/screenshots/ taken from the app now.`);
