import type { ServerResponse } from 'node:http';

/** An error answer of the API: `{error, message, http_code, ...extra}` (service-facts.md §0). */
export interface ApiError {
  code: string;
  message: string;
  httpCode: number;
  extra?: Record<string, unknown>;
}

export const apiError = (code: string, message: string, httpCode: number, extra?: Record<string, unknown>): ApiError => ({
  code,
  message,
  httpCode,
  ...(extra ? { extra } : {}),
});

export const errorBody = (e: ApiError): Record<string, unknown> => ({
  error: e.code,
  message: e.message,
  http_code: e.httpCode,
  ...e.extra,
});

export function sendJson(res: ServerResponse, status: number, body: unknown, headers: Record<string, string> = {}): void {
  if (res.headersSent || res.destroyed) return;
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'Content-Type': 'application/json; charset=utf-8',
    'Content-Length': Buffer.byteLength(text),
    ...headers,
  });
  res.end(text);
}

export function sendError(res: ServerResponse, e: ApiError): void {
  sendJson(res, e.httpCode, errorBody(e));
}
