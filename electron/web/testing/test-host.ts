// The browser host as tests meet it: a real core (with its embedded service) behind a real host on
// loopback, a stand-in renderer, and the token header and Origin the app's own page would send.
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { createCore, type Core } from '../../core/create-core';
import { createRecordingDesktop } from '../../core/ports/recording-desktop';
import type { SecretStore } from '../../core/ports/secret-store';
import { createFileSecretStore } from '../../core/vault/file-secret-store';
import { startBrowserHost, type BrowserHost } from '../browser-host';

export interface TestHostOptions {
  /** Temp folder prefix, so a leftover folder names its test. */
  prefix: string;
  /** Files of the stand-in renderer, relative to its folder; index.html defaults to an empty page. */
  renderer?: Record<string, string>;
  pageBridge?: string;
  /** Defaults to a file-backed store inside the temp folder. */
  secretStore?: (dir: string) => SecretStore;
}

export interface TestHost {
  dir: string;
  core: Core;
  host: BrowserHost;
  token: string;
  /** The headers of the app's own page: its token (as the page sends it on staging requests) and Origin. */
  own: { 'x-assemblyline-token': string; origin: string };
  close(): Promise<void>;
}

export async function startTestHost(o: TestHostOptions): Promise<TestHost> {
  const dir = await mkdtemp(path.join(tmpdir(), o.prefix));
  const rendererDir = path.join(dir, 'renderer');
  const files = { 'index.html': '<!doctype html><html><head></head><body></body></html>', ...o.renderer };
  for (const [name, text] of Object.entries(files)) {
    await mkdir(path.dirname(path.join(rendererDir, name)), { recursive: true });
    await writeFile(path.join(rendererDir, name), text);
  }
  const pageBridgeFile = path.join(dir, 'page-bridge.js');
  await writeFile(pageBridgeFile, o.pageBridge ?? '');
  const core = await createCore({
    dataDir: path.join(dir, 'data'),
    downloadsDir: path.join(dir, 'downloads'),
    secretStore: o.secretStore?.(dir) ?? createFileSecretStore(path.join(dir, 'secrets.json')),
    desktop: createRecordingDesktop(),
    host: 'browser',
    version: 'test',
  });
  const host = await startBrowserHost({ core, rendererDir, pageBridgeFile });
  const token = new URL(host.url).hash.replace(/^#token=/, '');
  return {
    dir,
    core,
    host,
    token,
    own: { 'x-assemblyline-token': token, origin: host.origin },
    close: async () => {
      await host.close();
      await core.close();
      await rm(dir, { recursive: true, force: true });
    },
  };
}
