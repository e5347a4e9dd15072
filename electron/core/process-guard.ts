/** What a host tells the page about an error nobody was waiting for. */
export type ErrorReport = (code: string, message: string) => void;

export const UNHANDLED_REJECTION = 'UNHANDLED_REJECTION';
export const UNCAUGHT_EXCEPTION = 'UNCAUGHT_EXCEPTION';

/**
 * Installs process-level handlers so that no stray rejection or exception ends a host (the browser host,
 * Electron main): each is logged, reported to the page (`app:error`), and the app goes on — uploads keep
 * running, the service child keeps serving. Returns a function that removes the handlers.
 */
export function guardProcess(proc: NodeJS.Process, report: ErrorReport, log: (...args: unknown[]) => void = console.error): () => void {
  const describe = (cause: unknown) => (cause instanceof Error ? cause.message : String(cause));
  const safeReport = (code: string, message: string) => {
    try {
      report(code, message);
    } catch {
      // Reporting must not throw back into the handler that keeps the process alive.
    }
  };
  const onRejection = (reason: unknown) => {
    log('Assemblyline: unhandled rejection (the app goes on):', reason);
    safeReport(UNHANDLED_REJECTION, describe(reason));
  };
  const onException = (error: Error) => {
    log('Assemblyline: uncaught exception (the app goes on):', error);
    safeReport(UNCAUGHT_EXCEPTION, describe(error));
  };
  proc.on('unhandledRejection', onRejection);
  proc.on('uncaughtException', onException);
  return () => {
    proc.off('unhandledRejection', onRejection);
    proc.off('uncaughtException', onException);
  };
}
