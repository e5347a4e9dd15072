import { fork, type ChildProcess } from 'node:child_process';
import { createRequire } from 'node:module';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { parseChildMessage, type ParentMessage } from '../../../shared/local-service/child-messages';
import { testBundle } from '../../../shared/testing/test-bundles';
import { createAdminRequests } from './admin-requests';
import type { ServiceChild, ServiceExit, ServiceProcessPort, ServiceReady } from '../ports/service-process';

export interface ForkOptions {
  /** The child's entry: `service/child-entry.ts` (run through tsx) or a built `.cjs`/`.js`. */
  entry: string;
  /** Node flags for the child (default: tsx's loader for a `.ts` entry). */
  execArgv?: string[];
  /** The child's output; default: the app's own stdout/stderr. */
  stdio?: 'inherit' | 'ignore';
}

/** The browser host's adapter: the service in a forked Node process, configured over the IPC channel. */
export function createForkServiceProcess(options: ForkOptions): ServiceProcessPort {
  const execArgv = options.execArgv ?? (options.entry.endsWith('.ts') ? tsxExecArgv() : []);
  return {
    spawn({ dataDir, port, notifications, jobSlots, chat }) {
      const proc = fork(options.entry, [], {
        execArgv,
        // Nothing secret goes here: the child gets its configuration and hands back its secret over IPC.
        env: process.env,
        stdio: options.stdio === 'ignore' ? ['ignore', 'ignore', 'ignore', 'ipc'] : ['ignore', 'inherit', 'inherit', 'ipc'],
        serialization: 'json',
      });
      return wrapChild(proc, { type: 'start', dataDir, port, ...(notifications ? { notifications } : {}), ...(jobSlots !== undefined ? { jobSlots } : {}), ...(chat ? { chat } : {}) });
    },
  };
}

/**
 * `service/child-entry.ts` of this source tree, core's default where the host names no entry (tests; both
 * hosts name theirs). Under Vitest, the bundle of it that the run built once (shared/testing/test-bundles.ts):
 * it starts in a quarter of the CPU that tsx takes.
 */
export function sourceServiceEntry(): string {
  return testBundle(process.env, 'service-child.cjs') ?? fileURLToPath(new URL('../../../service/child-entry.ts', import.meta.url));
}

function tsxExecArgv(): string[] {
  const loader = createRequire(import.meta.url).resolve('tsx');
  return ['--import', pathToFileURL(loader).href];
}

function wrapChild(proc: ChildProcess, start: ParentMessage): ServiceChild {
  // Calls `send` (below) only once a request is made.
  const admin = createAdminRequests((message) => send(message));
  const exited = new Promise<ServiceExit>((resolve) => {
    proc.once('exit', (code, signal) => {
      admin.fail('the local service exited');
      resolve({ code, signal });
    });
    // Spawning failed (no such entry, EAGAIN): 'exit' may never come.
    proc.once('error', () => {
      if (proc.exitCode === null && proc.signalCode === null && proc.pid === undefined) resolve({ code: null, signal: null });
    });
  });
  const ready = new Promise<ServiceReady>((resolve, reject) => {
    proc.on('message', (raw) => {
      const message = parseChildMessage(raw);
      if (message?.type === 'ready') resolve({ url: message.url, port: message.port, authKey: message.authKey, authSecret: message.authSecret, accessProblem: message.accessProblem });
      else if (message?.type === 'admin-result' || message?.type === 'admin-failed') admin.onMessage(message);
      else if (message?.type === 'failed') reject(Object.assign(new Error(message.message), { code: message.code }));
    });
    void exited.then((exit) => reject(new Error(`the local service exited before it listened (${exit.signal ?? `code ${exit.code}`})`)));
  });
  ready.catch(() => undefined);
  // A child killed mid-send makes the channel throw EPIPE/ERR_IPC_CHANNEL_CLOSED: never an unhandled error.
  proc.on('error', () => undefined);
  const send = (message: ParentMessage): boolean => {
    if (!proc.connected) return false;
    proc.send(message, (error) => void error);
    return true;
  };
  send(start);
  const kill = () => {
    if (proc.exitCode === null && proc.signalCode === null) proc.kill('SIGKILL');
  };
  return {
    pid: proc.pid,
    ready,
    exited,
    kill,
    admin: (op) => admin.request(op),
    async stop(graceMs) {
      if (proc.exitCode !== null || proc.signalCode !== null) return exited;
      send({ type: 'stop' });
      const timer = setTimeout(kill, graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
  };
}
