import type { AppError, Result } from '../../../shared/result';

/** A bridge Result's error as a thrown value, for react-query; it keeps the service's code. */
export class BridgeError extends Error {
  readonly code: string;
  readonly httpCode: number | undefined;
  readonly details: Record<string, unknown> | undefined;

  constructor(error: AppError) {
    super(error.message);
    this.name = 'BridgeError';
    this.code = error.code;
    this.httpCode = error.httpCode;
    this.details = error.details;
  }
}

export const unwrap = <T>(result: Result<T>): T => {
  if (result.ok) return result.value;
  throw new BridgeError(result.error);
};

/** Any thrown value as code + message, for ErrorPanel. */
export const toAppError = (error: unknown): AppError => {
  if (error instanceof BridgeError) return { code: error.code, message: error.message, httpCode: error.httpCode };
  if (error instanceof Error) return { code: 'INTERNAL_ERROR', message: error.message };
  return { code: 'INTERNAL_ERROR', message: String(error) };
};
