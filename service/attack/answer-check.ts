// The invariant every fuzzed request must keep, as a pure function of what came back.

export interface Answer {
  /** 0 when no answer came (hang or connection dropped). */
  status: number;
  text: string;
  ms: number;
  hung: boolean;
  /** A network error other than the deadline (the service closed the connection, or died). */
  failure: string | null;
  /** A HEAD answer: HTTP gives it no body, so only its status can be checked. */
  bodyless: boolean;
}

export type ViolationKind = 'server-error' | 'hang' | 'no-error-code' | 'connection' | 'write-outside' | 'orphan';

export interface Violation {
  kind: ViolationKind;
  detail: string;
}

/** Status < 500; every 4xx a JSON body `{error: "<CODE>", ...}`; an answer within the deadline. */
export function answerViolation(a: Answer): Violation | null {
  if (a.hung) return { kind: 'hang', detail: `no answer within ${a.ms} ms` };
  if (a.failure) return { kind: 'connection', detail: a.failure };
  if (a.status >= 500) return { kind: 'server-error', detail: `${a.status} ${a.text.slice(0, 300)}` };
  if (a.status >= 400 && !a.bodyless) {
    let body: unknown = null;
    try {
      body = JSON.parse(a.text);
    } catch {
      // Not JSON: reported below.
    }
    const code = typeof body === 'object' && body !== null ? (body as { error?: unknown }).error : undefined;
    if (typeof code !== 'string' || !/^[A-Z][A-Z0-9_]+$/.test(code)) {
      return { kind: 'no-error-code', detail: `${a.status} without a JSON error code: ${a.text.slice(0, 200)}` };
    }
  }
  return null;
}
