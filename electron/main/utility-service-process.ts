import type { UtilityProcess, utilityProcess as UtilityProcessModule } from 'electron';
import { parseChildMessage, type ParentMessage } from '../../shared/local-service/child-messages';
import { createAdminRequests } from '../core/local-service/admin-requests';
import type { ServiceChild, ServiceExit, ServiceProcessPort, ServiceReady } from '../core/ports/service-process';

/**
 * The Electron host's adapter: the service in a utilityProcess (a Node child that Electron owns and ends
 * with the app), running the bundled `dist/electron/service-child.cjs`. Configured, and its secret handed
 * back, over the message port only.
 */
export function createUtilityServiceProcess(utility: typeof UtilityProcessModule, entry: string): ServiceProcessPort {
  return {
    spawn({ dataDir, port, notifications, jobSlots, chat }) {
      const child = utility.fork(entry, [], { serviceName: 'Assemblyline local service', stdio: 'inherit' });
      return wrapUtilityChild(child, { type: 'start', dataDir, port, ...(notifications ? { notifications } : {}), ...(jobSlots !== undefined ? { jobSlots } : {}), ...(chat ? { chat } : {}) });
    },
  };
}

function wrapUtilityChild(child: UtilityProcess, start: ParentMessage): ServiceChild {
  let gone = false;
  const admin = createAdminRequests((message) => send(message));
  const exited = new Promise<ServiceExit>((resolve) => {
    child.once('exit', (code) => {
      gone = true;
      admin.fail('the local service exited');
      resolve({ code, signal: null });
    });
  });
  const ready = new Promise<ServiceReady>((resolve, reject) => {
    child.on('message', (raw: unknown) => {
      const message = parseChildMessage(raw);
      if (message?.type === 'ready') resolve({ url: message.url, port: message.port, authKey: message.authKey, authSecret: message.authSecret, accessProblem: message.accessProblem });
      else if (message?.type === 'admin-result' || message?.type === 'admin-failed') admin.onMessage(message);
      else if (message?.type === 'failed') reject(Object.assign(new Error(message.message), { code: message.code }));
    });
    void exited.then((exit) => reject(new Error(`the local service exited before it listened (code ${exit.code})`)));
  });
  ready.catch(() => undefined);
  function send(message: ParentMessage): boolean {
    if (gone) return false;
    child.postMessage(message);
    return true;
  }
  // postMessage before 'spawn' is queued by Electron.
  send(start);
  const kill = () => {
    if (gone) return;
    // utilityProcess.kill() is SIGTERM, which a hung child may never act on.
    if (child.pid !== undefined) {
      try {
        process.kill(child.pid, 'SIGKILL');
        return;
      } catch {
        // Already gone.
      }
    }
    child.kill();
  };
  return {
    get pid() {
      return child.pid;
    },
    ready,
    exited,
    kill,
    admin: (op) => admin.request(op),
    async stop(graceMs) {
      if (gone) return exited;
      send({ type: 'stop' });
      const timer = setTimeout(kill, graceMs);
      const exit = await exited;
      clearTimeout(timer);
      return exit;
    },
  };
}
