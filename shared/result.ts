/**
 * Errors cross every boundary (IPC, WebSocket, core API) as data, never as thrown exceptions:
 * Electron's ipcMain.handle keeps only `.message` of a thrown error, and the renderer must be able
 * to show the service's error code.
 */
export interface AppError {
  /** The service's error code (`INVALID_SIGNATURE`, `TEMPLATE_LIST_ERROR`, ...) or an app code (`NETWORK_ERROR`, ...). */
  readonly code: string;
  readonly message: string;
  /** HTTP status the service answered with, when the error came from the service. */
  readonly httpCode?: number;
  /** Anything else the service sent with the error (`reason`, `info`, `assembly_id`, ...). */
  readonly details?: Record<string, unknown>;
}

export type Result<T> = { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: AppError };

export const ok = <T>(value: T): Result<T> => ({ ok: true, value });
export const err = (code: string, message: string, extra: Partial<AppError> = {}): Result<never> => ({
  ok: false,
  error: { code, message, ...extra },
});

/** App-side error codes (the service's own codes pass through unchanged). */
export const AppErrorCode = {
  invalidRequest: 'INVALID_IPC_REQUEST',
  unknownChannel: 'UNKNOWN_CHANNEL',
  network: 'NETWORK_ERROR',
  invalidResponse: 'INVALID_SERVICE_RESPONSE',
  notFound: 'NOT_FOUND',
  vaultUnavailable: 'VAULT_UNAVAILABLE',
  fileUnreadable: 'FILE_UNREADABLE',
  uploadFailed: 'UPLOAD_FAILED',
  internal: 'INTERNAL_ERROR',
} as const;
