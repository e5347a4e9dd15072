import { parseParentMessage, type ChildMessage, type ParentMessage } from '../shared/local-service/child-messages';
import { startLocalService, type LocalService } from './index';

/**
 * The local service as a child process of the app (core supervises it): a forked Node process in the
 * browser host (`process.send`), Electron's utilityProcess in the Electron host (`process.parentPort`).
 * It waits for `start` over IPC, answers `ready` with its URL and account, and closes on `stop` or
 * when its parent goes away. Nothing comes from argv or the environment.
 */

interface ParentPort {
  on(event: 'message', listener: (event: { data: unknown }) => void): void;
  postMessage(message: unknown): void;
}

const parentPort = (process as unknown as { parentPort?: ParentPort }).parentPort;

function send(message: ChildMessage): void {
  if (parentPort) parentPort.postMessage(message);
  else process.send?.(message);
}

let service: LocalService | null = null;
let starting = false;
let exiting = false;

async function exit(code: number): Promise<void> {
  if (exiting) return;
  exiting = true;
  // Close the database cleanly; a stuck close must not keep an orphan around.
  setTimeout(() => process.exit(code), 5_000).unref();
  await service?.close().catch(() => undefined);
  process.exit(code);
}

async function onMessage(raw: unknown): Promise<void> {
  const message = parseParentMessage(raw);
  if (!message) return;
  if (message.type === 'stop') return exit(0);
  if (message.type === 'admin') return answerAdmin(message);
  if (starting || service) return;
  starting = true;
  try {
    const notifications = message.notifications;
    service = await startLocalService({
      dataDir: message.dataDir,
      port: message.port,
      // The app is this instance's only client and always signs (or sends a Bearer token): a web page or
      // process that learned the Auth Key (the port is reachable by all of them) cannot create Assemblies.
      requireSignature: true,
      // Tests shorten the retry delays (ASSEMBLYLINE_NOTIFY_RETRY_DELAYS, read by the host's composition root).
      ...(notifications ? { notifications } : {}),
      ...(message.jobSlots !== undefined ? { jobSlots: message.jobSlots } : {}),
      // /ai/chat's endpoint (ASSEMBLYLINE_CHAT_*, read by the host's composition root).
      ...(message.chat ? { chat: message.chat } : {}),
    });
    send({ type: 'ready', url: service.url, port: service.port, authKey: service.authKey, authSecret: service.authSecret, accessProblem: service.accessProblem });
  } catch (cause) {
    const code = (cause as NodeJS.ErrnoException).code;
    send({ type: 'failed', message: cause instanceof Error ? cause.message : String(cause), code: typeof code === 'string' ? code : null });
    await exit(1);
  }
}

/** The app's admin requests (its own keys, restoring full access): only over this IPC channel, never HTTP. */
function answerAdmin(message: Extract<ParentMessage, { type: 'admin' }>): void {
  const { requestId } = message;
  if (!service) return send({ type: 'admin-failed', requestId, message: 'The local service has not started yet.' });
  try {
    if (message.op === 'keys') send({ type: 'admin-result', requestId, answer: { op: 'keys', keys: service.keys() } });
    else if (message.op === 'executing') send({ type: 'admin-result', requestId, answer: { op: 'executing', count: service.executing() } });
    else send({ type: 'admin-result', requestId, answer: { op: 'restore-full-access', ...service.restoreFullAccess(message.prefer) } });
  } catch (cause) {
    send({ type: 'admin-failed', requestId, message: cause instanceof Error ? cause.message : String(cause) });
  }
}

// A stray rejection in a robot or a stream is logged; the service goes on serving.
process.on('unhandledRejection', (reason) => {
  console.error('local service: unhandled rejection:', reason);
});
// After an uncaught exception its state is unknown: exit, and core's supervisor starts a fresh one.
process.on('uncaughtException', (error) => {
  console.error('local service: uncaught exception:', error);
  void exit(1);
});

// Ctrl-C in a terminal reaches the whole process group: the app stops this child itself, in order (uploads
// paused first), so the service does not die under them. SIGTERM still closes it cleanly.
process.on('SIGINT', () => undefined);
process.on('SIGTERM', () => void exit(0));

if (parentPort) {
  parentPort.on('message', (event) => void onMessage(event.data));
} else if (process.send) {
  process.on('message', (raw) => void onMessage(raw));
  // The app ended (even by kill -9): do not outlive it.
  process.on('disconnect', () => void exit(0));
} else {
  console.error('service/child-entry.ts runs as a child of the app; to run the service alone use `npm run service`.');
  process.exit(2);
}
