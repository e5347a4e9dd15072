import { describe, expect, it } from 'vitest';
import { cancelManySummary } from './CancelSelection';

describe('cancelManySummary', () => {
  it('counts what was canceled and what had ended, in the right number, and flags a refusal', () => {
    expect(cancelManySummary({ canceled: ['a', 'b'], alreadyEnded: [], failed: [] })).toEqual({ text: 'Canceled 2 Assemblies.', refused: false });
    expect(cancelManySummary({ canceled: [], alreadyEnded: ['a', 'b'], failed: [] }).text).toBe('Canceled 0 Assemblies; 2 had already ended and were left as they were.');
    expect(cancelManySummary({ canceled: ['a'], alreadyEnded: [], failed: [{ assemblyId: 'b', code: 'RATE_LIMIT_REACHED', message: 'Slow down' }] })).toEqual({
      text: 'Canceled 1 Assembly; 1 refused: RATE_LIMIT_REACHED — Slow down.',
      refused: true,
    });
  });
});
