#!/usr/bin/env node
// `npm start`: install if needed, build, then run the app in Electron when its runtime is on this machine,
// else in the browser host (same core, same UI, served on loopback to the system browser).
// Plain Node with no dependencies: it must run on a fresh clone.
import { spawn, spawnSync } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const root = join(dirname(fileURLToPath(import.meta.url)), '..');
const npm = process.platform === 'win32' ? 'npm.cmd' : 'npm';
const npx = process.platform === 'win32' ? 'npx.cmd' : 'npx';

function run(command, args) {
  // Windows runs npm/npx through .cmd shims, which Node only spawns with a shell.
  const result = spawnSync(command, args, { cwd: root, stdio: 'inherit', shell: process.platform === 'win32' });
  if (result.status !== 0) {
    console.error(`start: \`${command} ${args.join(' ')}\` failed (exit ${result.status ?? result.signal}).`);
    process.exit(result.status ?? 1);
  }
}

function onPath(command) {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}

/**
 * The Electron binary, without loading the `electron` package: its index.js downloads the runtime when it
 * is missing (Electron 42+), which must never happen from `npm start` on an offline machine.
 */
function findElectron() {
  let pkgDir;
  try {
    pkgDir = dirname(createRequire(join(root, 'package.json')).resolve('electron/package.json'));
  } catch {
    return { path: null, why: 'the electron package is not installed' };
  }
  const pathFile = join(pkgDir, 'path.txt');
  const override = process.env.ELECTRON_OVERRIDE_DIST_PATH;
  // Same lookup as the electron package: path.txt names the binary; an override dist may go without it.
  if (!existsSync(pathFile) && !override) return { path: null, why: 'the Electron runtime was never downloaded (no electron/path.txt)' };
  const relative = existsSync(pathFile) ? readFileSync(pathFile, 'utf8').trim() : 'electron';
  const binary = join(override || join(pkgDir, 'dist'), relative);
  try {
    accessSync(binary, constants.X_OK);
    return { path: binary, why: `found ${binary}` };
  } catch {
    return { path: null, why: `${binary} is missing or not executable` };
  }
}

function launch(command, args, env = process.env) {
  // Its own process group, so a signal reaches every layer (npx, tsx, dbus-run-session, the app) and
  // the app closes cleanly instead of being orphaned.
  const detached = process.platform !== 'win32';
  const child = spawn(command, args, { cwd: root, stdio: 'inherit', env, detached, shell: !detached });
  for (const signal of ['SIGINT', 'SIGTERM']) {
    process.on(signal, () => {
      try {
        if (detached) process.kill(-child.pid, signal);
        else child.kill(signal);
      } catch {
        // Already gone.
      }
    });
  }
  child.on('exit', (code, signal) => process.exit(code ?? (signal ? 1 : 0)));
}

if (!existsSync(join(root, 'node_modules'))) {
  console.log('start: node_modules is missing, running `npm ci`...');
  run(npm, ['ci']);
}
console.log('start: building (npm run build)...');
run(npm, ['run', '-s', 'build']);

const electron = findElectron();
if (electron.path && !process.env.ASSEMBLYLINE_BROWSER_HOST) {
  console.log(`start: launching Electron (${electron.why}).`);
  // `electron .` loads package.json "main", i.e. dist/electron/main.cjs.
  launch(electron.path, [root]);
} else {
  const reason = electron.path ? 'ASSEMBLYLINE_BROWSER_HOST is set' : electron.why;
  const hostArgs = ['tsx', 'electron/web/start.ts'];
  const needsKeyring =
    process.platform === 'linux' && !process.env.DBUS_SESSION_BUS_ADDRESS && onPath('dbus-run-session') && onPath('gnome-keyring-daemon');
  if (needsKeyring) {
    console.log(`start: launching the browser host (${reason}), inside dbus-run-session with gnome-keyring unlocked so secrets go to a real keyring.`);
    const password = process.env.ASSEMBLYLINE_KEYRING_PASSWORD || 'assemblyline';
    // Same unlock as scripts/with-keyring.sh (echo: the daemon reads a newline-terminated password).
    const script = 'echo "$ASSEMBLYLINE_KEYRING_PASSWORD" | gnome-keyring-daemon --unlock --components=secrets >/dev/null 2>&1; exec "$@"';
    launch('dbus-run-session', ['--', 'sh', '-c', script, 'keyring', npx, ...hostArgs], {
      ...process.env,
      ASSEMBLYLINE_KEYRING_PASSWORD: password,
    });
  } else {
    console.log(`start: launching the browser host (${reason}).`);
    launch(npx, hostArgs);
  }
}
