import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { defaultDataDir, defaultDownloadsDir } from './host-paths';
import { notifyOptionsFromEnv } from '../../shared/local-service/notify-options';
import { jobSlotsFromEnv } from '../../shared/local-service/job-slots-option';
import { chatOptionsFromEnv, type ChatStartOptions } from '../../shared/local-service/chat-option';
import { guardProcess } from '../core/process-guard';
import { launchBrowserApp } from './launch';
import { browserOpenPlan } from './open-plan';
import { openWithSystem } from './system-desktop';

/**
 * The browser host's composition root (`npx tsx electron/web/start.ts`, or `npm start` where Electron
 * cannot run): core with the OS keyring, the host on loopback, and the URL opened in the system browser.
 */

const repoRoot = fileURLToPath(new URL('../..', import.meta.url));
const env = process.env;
const version = (JSON.parse(readFileSync(join(repoRoot, 'package.json'), 'utf8')) as { version: string }).version;
const optionalSlots = (jobSlots: number | undefined) => (jobSlots !== undefined ? { jobSlots } : {});
const optionalChat = (chat: ChatStartOptions | undefined) => (chat ? { chat } : {});
const optionalPort = (value: string | undefined) => (value ? Number.parseInt(value, 10) : undefined);

try {
  const app = await launchBrowserApp({
    dataDir: defaultDataDir(process.platform, env, homedir()),
    downloadsDir: defaultDownloadsDir(env, homedir()),
    rendererDir: env.ASSEMBLYLINE_RENDERER_DIR || join(repoRoot, 'dist', 'renderer'),
    pageBridgeFile: join(repoRoot, 'dist', 'web', 'page-bridge.js'),
    serviceEntry: join(repoRoot, 'dist', 'electron', 'service-child.cjs'),
    version,
    port: optionalPort(env.ASSEMBLYLINE_PORT) ?? 0,
    localServicePort: optionalPort(env.ASSEMBLYLINE_SERVICE_PORT),
    // The embedded service's notify options (ASSEMBLYLINE_NOTIFY_*): read here, never by core.
    localService: { notifications: notifyOptionsFromEnv(env), ...optionalSlots(jobSlotsFromEnv(env)), ...optionalChat(chatOptionsFromEnv(env)) },
  });
  // From here on no stray rejection or exception ends the host: logged, shown on the page, and it goes on.
  guardProcess(process, app.core.reportError);
  console.log(`Assemblyline is running at ${app.host.url}`);
  if (app.core.localServiceUrl) console.log(`Local service: ${app.core.localServiceUrl}`);

  const plan = browserOpenPlan(process.platform, env, app.host.url);
  if (plan.open) {
    // A browser's command line is world-readable (/proc/<pid>/cmdline): it gets a one-time code, never the token.
    openWithSystem(app.host.openUrl()).catch((cause: unknown) => {
      console.log(`Could not open a browser (${cause instanceof Error ? cause.message : String(cause)}); open the URL above.`);
    });
  } else {
    console.log(plan.message);
  }

  let stopping = false;
  const stop = (signal: string) => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: closing Assemblyline...`);
    app.close().then(
      () => process.exit(0),
      (cause: unknown) => {
        console.error('Error while closing:', cause);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
} catch (cause) {
  console.error(`Assemblyline could not start: ${cause instanceof Error ? cause.message : String(cause)}`);
  process.exit(1);
}
