import { defineConfig, type Project } from '@playwright/test';

/**
 * Two projects, one set of specs. `browser-host` runs everywhere: Debian's Chromium drives the real
 * renderer through the browser host, the real core and the real local service. `electron` launches the
 * app with `_electron.launch`; it is only part of the run with ASSEMBLYLINE_E2E_ELECTRON=1 (it needs an
 * Electron runtime, which CI machines cannot download).
 */
const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update', '--disable-sync'];

const projects: Project[] = [{ name: 'browser-host' }];
if (process.env.ASSEMBLYLINE_E2E_ELECTRON === '1') {
  // These specs exercise the browser host's HTTP gate and WebSocket, which Electron does not have
  // (usage-statistics reads status records and kills the service through the browser host's core;
  // desktop: Web Notifications and page-level keys are the browser host's, Electron's are main's;
  // names-arrive: its service fault is set through the browser host's environment).
  projects.push({ name: 'electron', testIgnore: /(security|browser-bridge|connection|usage-statistics|desktop|client-key-sign-in|names-arrive)\.spec\.ts/ });
}

export default defineConfig({
  testDir: './specs',
  outputDir: '../test-results/e2e',
  globalSetup: './global-setup.ts',
  // Two tests at once, the tests of one file too: every test starts its own app (core, browser host,
  // service child) on its own data dir and ephemeral ports, and a file's servers (beforeAll) are started
  // by each worker that runs one of its tests, so nothing but the machine is shared. One worker left a
  // 2-core CI machine a third idle while tests waited on the service, ffmpeg or the page (886 s of wall
  // clock for 576 s of CPU); whole files per worker left one worker on accessibility.spec's tests while
  // the other had finished. ASSEMBLYLINE_E2E_WORKERS=1 runs them one by one again.
  fullyParallel: true,
  workers: Number(process.env.ASSEMBLYLINE_E2E_WORKERS ?? 2),
  retries: 0,
  timeout: 180_000,
  expect: { timeout: 60_000 },
  reporter: process.env.CI ? 'list' : [['list']],
  use: {
    // Both projects get Debian's Chromium (the electron project's fixtures never open it, but may resolve it).
    browserName: 'chromium',
    headless: true,
    launchOptions: { executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium', args: chromiumArgs },
    screenshot: 'only-on-failure',
    // 'retain-on-failure' records every test's trace (each action's DOM snapshot, a screencast) to keep the
    // failing ones': a quarter of the CPU (accessibility and templates specs: 126 s → 93 s of CPU without).
    // A failure still leaves its screenshot; ASSEMBLYLINE_E2E_TRACE=1 records traces again, to debug one.
    trace: process.env.ASSEMBLYLINE_E2E_TRACE === '1' ? 'retain-on-failure' : 'off',
    viewport: { width: 1280, height: 860 },
    actionTimeout: 20_000,
    // A navigation that never reaches 'load' fails with Playwright's log of how far it got (a stranger page's
    // goto in security.spec hung once for the whole 180 s test timeout in a CI, with nothing to tell why).
    navigationTimeout: 60_000,
  },
  projects,
});
