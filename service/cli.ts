import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { startLocalService } from './index';

/** `npm run service -- --port <port> --data-dir <dir> --auth-key <key> --auth-secret <secret> [--require-signature]` */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string', default: './.data/service' },
      'auth-key': { type: 'string' },
      'auth-secret': { type: 'string' },
      'require-signature': { type: 'boolean' },
      'public-base-url': { type: 'string' },
      'max-assemblies-per-minute': { type: 'string' },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got "${values.port}"`);
  if (values['auth-secret'] && !values['auth-key']) {
    throw new Error('--auth-secret needs --auth-key');
  }
  const perMinute = values['max-assemblies-per-minute'] === undefined ? undefined : Number(values['max-assemblies-per-minute']);
  const service = await startLocalService({
    port,
    dataDir: resolve(values['data-dir']),
    ...(values['auth-key'] ? { authKey: values['auth-key'] } : {}),
    ...(values['auth-secret'] ? { authSecret: values['auth-secret'] } : {}),
    // Explicit on every start, so the setting is always what the command line says.
    requireSignature: values['require-signature'] === true,
    ...(values['public-base-url'] ? { publicBaseUrl: values['public-base-url'] } : {}),
    ...(perMinute !== undefined ? { maxAssembliesPerMinute: perMinute } : {}),
  });
  if (!values['auth-key'] || !values['auth-secret']) {
    console.log(`auth key:    ${service.authKey}`);
    console.log(`auth secret: ${service.authSecret}`);
  }
  console.log(`data dir:    ${resolve(values['data-dir'])}`);
  console.log(`listening on ${service.url}`);
  let stopping = false;
  const stop = (signal: string): void => {
    if (stopping) return;
    stopping = true;
    console.log(`${signal}: closing`);
    service.close().then(
      () => process.exit(0),
      (e: Error) => {
        console.error(e);
        process.exit(1);
      },
    );
  };
  process.on('SIGINT', () => stop('SIGINT'));
  process.on('SIGTERM', () => stop('SIGTERM'));
}

main().catch((e: Error) => {
  console.error(`service: ${e.message}`);
  process.exit(1);
});
