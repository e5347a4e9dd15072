import { access } from 'node:fs/promises';
import { createCore, type Core, type CorePorts } from '../core/create-core';
import { createForkServiceProcess } from '../core/local-service/fork-service-process';
import { createKeyringSecretStore } from '../core/vault/keyring-secret-store';
import { startBrowserHost, type BrowserHost } from './browser-host';
import { createSystemDesktop } from './system-desktop';

export interface BrowserAppOptions {
  readonly dataDir: string;
  readonly downloadsDir: string;
  readonly rendererDir: string;
  readonly pageBridgeFile: string;
  readonly version: string;
  readonly port?: number;
  readonly localServicePort?: number;
  /** The embedded service's process and its supervision (tests shorten health checks). */
  readonly localService?: Omit<NonNullable<CorePorts['localService']>, 'port'>;
  /**
   * The service's child entry when `localService.process` is not given: the built
   * `dist/electron/service-child.cjs`, the bundle Electron runs (it starts in ~0.4 s; the source through
   * tsx, core's default, in ~1.2 s).
   */
  readonly serviceEntry?: string;
  /** Defaults to the OS keyring (the browser host's secure store). */
  readonly secretStore?: CorePorts['secretStore'];
  readonly desktop?: CorePorts['desktop'];
  readonly upload?: CorePorts['upload'];
  /** Test hook: the key-rotation assistant stops after this step, as if the app had quit there. */
  readonly rotationStopAfter?: CorePorts['rotationStopAfter'];
}

export interface BrowserApp {
  readonly core: Core;
  readonly host: BrowserHost;
  close(): Promise<void>;
}

/** Core plus the browser host, as `npm start` and the end-to-end fixture both run them. */
export async function launchBrowserApp(options: BrowserAppOptions): Promise<BrowserApp> {
  for (const file of [options.rendererDir, options.pageBridgeFile, ...(options.serviceEntry ? [options.serviceEntry] : [])]) {
    await access(file).catch(() => {
      throw new Error(`${file} is missing: run \`npm run build\` first.`);
    });
  }
  const core = await createCore({
    dataDir: options.dataDir,
    downloadsDir: options.downloadsDir,
    secretStore: options.secretStore ?? createKeyringSecretStore(),
    desktop: options.desktop ?? createSystemDesktop(),
    host: 'browser',
    version: options.version,
    localService: {
      ...options.localService,
      ...(!options.localService?.process && options.serviceEntry ? { process: createForkServiceProcess({ entry: options.serviceEntry }) } : {}),
      ...(options.localServicePort !== undefined ? { port: options.localServicePort } : {}),
    },
    ...(options.upload ? { upload: options.upload } : {}),
    ...(options.rotationStopAfter ? { rotationStopAfter: options.rotationStopAfter } : {}),
  });
  let host: BrowserHost;
  try {
    host = await startBrowserHost({ core, rendererDir: options.rendererDir, pageBridgeFile: options.pageBridgeFile, port: options.port ?? 0 });
  } catch (cause) {
    await core.close();
    throw cause;
  }
  return {
    core,
    host,
    close: async () => {
      await host.close();
      await core.close();
    },
  };
}
