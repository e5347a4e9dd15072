import { parseArgs } from 'node:util';
import { resolve } from 'node:path';
import { AUTH_SECRET_ENV, chooseAuthSecret, storeAuthSecret } from './cli-secret';
import { startLocalService } from './index';
import { notifyOptionsFromFlags } from './notifications/notify-flags';
import { loadPriceList, PRICE_LIST_ENV } from './usage/price-list';
import { jobSlotsFrom } from './queue/job-slots';
import { JOB_SLOTS_ENV } from '../shared/local-service/job-slots-option';
import { chatOptionsFrom } from './robots/chat-options';
import { CHAT_ENV } from '../shared/local-service/chat-option';

const SOURCE_LABEL = { flag: '--auth-secret', file: '--auth-secret-file', env: AUTH_SECRET_ENV } as const;

/**
 * `ASSEMBLYLINE_AUTH_SECRET=… npm run service -- --port <port> --data-dir <dir> --auth-key <key> [--require-signature]`
 * (or `--auth-secret-file <file>`). `--auth-secret <secret>` still works but every local user sees it in `ps`.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string', default: '0' },
      'data-dir': { type: 'string', default: './.data/service' },
      'auth-key': { type: 'string' },
      'auth-secret': { type: 'string' },
      'auth-secret-file': { type: 'string' },
      'require-signature': { type: 'boolean' },
      'public-base-url': { type: 'string' },
      'max-assemblies-per-minute': { type: 'string' },
      // Robot jobs at once (docs/local-service.md "Job slots and the queue"); else ASSEMBLYLINE_JOB_SLOTS, else cores.
      'job-slots': { type: 'string' },
      // notify_url delivery (docs/local-service.md "Notifications").
      'notify-retry-delays': { type: 'string' },
      'notify-timeout-ms': { type: 'string' },
      // Else ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS; every entry is checked (shared/local-service/host-rules.ts).
      'notify-allow-hosts': { type: 'string' },
      'notify-signature': { type: 'string' },
      // Receivers on private and link-local addresses too (cloud metadata never); off by default.
      'notify-allow-private-networks': { type: 'boolean' },
      // The bill's prices (docs/local-service.md "Metering and the bill"); else ASSEMBLYLINE_PRICE_LIST; else free.
      'price-list': { type: 'string' },
      // /ai/chat (docs/local-service.md "Chat steps and tool servers"); else ASSEMBLYLINE_CHAT_*; the API key only from the env.
      'chat-endpoint': { type: 'string' },
      'chat-model': { type: 'string' },
      'chat-timeout-ms': { type: 'string' },
      'own-domains': { type: 'string' },
      // Hosts chat steps' tool servers may be on; else ASSEMBLYLINE_TOOL_SERVER_ALLOW_HOSTS; else loopback and own domains.
      'tool-server-allow-hosts': { type: 'string' },
      // Lets ASSEMBLYLINE_TEST_FAULT_CORRUPT / _DROP act outside NODE_ENV=test (service/files/test-faults.ts); for tests only.
      'test-faults': { type: 'boolean' },
    },
    strict: true,
  });
  const port = Number(values.port);
  if (!Number.isInteger(port) || port < 0 || port > 65535) throw new Error(`--port must be 0..65535, got "${values.port}"`);
  const chosen = chooseAuthSecret({ flag: values['auth-secret'], file: values['auth-secret-file'], env: process.env[AUTH_SECRET_ENV] });
  // Robots start ffmpeg and other children: none of them needs the secret in its environment.
  delete process.env[AUTH_SECRET_ENV];
  for (const w of chosen.warnings) console.error(`service: warning: ${w}`);
  if (chosen.source !== 'none' && !values['auth-key']) throw new Error(`an auth secret (${SOURCE_LABEL[chosen.source]}) needs --auth-key`);
  const perMinute = values['max-assemblies-per-minute'] === undefined ? undefined : Number(values['max-assemblies-per-minute']);
  const dataDir = resolve(values['data-dir']);
  const notifications = notifyOptionsFromFlags(values, process.env);
  // Checked before anything starts: a bad price list stops the service with the key it names.
  const priceList = loadPriceList(values['price-list'] ?? process.env[PRICE_LIST_ENV]);
  const jobSlots = jobSlotsFrom(values['job-slots'], process.env[JOB_SLOTS_ENV]);
  const chat = chatOptionsFrom(values, process.env);
  // Like the secret: robots' children need not see the endpoint's key.
  delete process.env[CHAT_ENV.apiKey];
  const service = await startLocalService({
    port,
    dataDir,
    ...(values['auth-key'] ? { authKey: values['auth-key'] } : {}),
    ...(chosen.secret !== undefined ? { authSecret: chosen.secret } : {}),
    // Explicit on every start, so the setting is always what the command line says.
    requireSignature: values['require-signature'] === true,
    ...(values['public-base-url'] ? { publicBaseUrl: values['public-base-url'] } : {}),
    ...(perMinute !== undefined ? { maxAssembliesPerMinute: perMinute } : {}),
    notifications,
    priceList,
    chat,
    ...(jobSlots !== undefined ? { jobSlots } : {}),
  });
  if (!values['auth-key']) console.log(`auth key:    ${service.authKey}`);
  if (service.accessProblem) console.error(`service: warning: ${service.accessProblem}`);
  if (chosen.source === 'none') {
    // Never on stdout, where logs keep it: the user reads it from a file only they can open.
    console.log(`auth secret: in ${storeAuthSecret(dataDir, service.authSecret)} (readable only by you)`);
  } else {
    console.log(`auth secret: from ${SOURCE_LABEL[chosen.source]}`);
  }
  console.log(`data dir:    ${dataDir}`);
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
