import { describe, expect, it } from 'vitest';
import { parseChildMessage, parseParentMessage } from './child-messages';

describe('messages between core and the service process', () => {
  it('takes a well-formed ready and failure from the child, and nothing else', () => {
    const ready = { type: 'ready', url: 'http://127.0.0.1:4000', port: 4000, authKey: 'k', authSecret: 's' };
    // An older child says nothing about its access: read as "no problem".
    expect(parseChildMessage(ready)).toEqual({ ...ready, accessProblem: null });
    expect(parseChildMessage({ ...ready, accessProblem: 'the full-access key is inactive' })).toMatchObject({ accessProblem: 'the full-access key is inactive' });
    expect(parseChildMessage({ type: 'failed', message: 'listen EADDRINUSE', code: 'EADDRINUSE' })).toEqual({ type: 'failed', message: 'listen EADDRINUSE', code: 'EADDRINUSE' });
    for (const bad of [null, 'ready', { type: 'ready', url: 'x', port: 70_000, authKey: 'k', authSecret: 's' }, { type: 'ready', url: 'x', port: 1 }, { type: 'exit' }]) {
      expect(parseChildMessage(bad)).toBeNull();
    }
  });

  it('takes start and stop from core, and refuses a start without a data folder', () => {
    expect(parseParentMessage({ type: 'start', dataDir: '/data', port: 0 })).toEqual({ type: 'start', dataDir: '/data', port: 0 });
    expect(parseParentMessage({ type: 'stop' })).toEqual({ type: 'stop' });
    expect(parseParentMessage({ type: 'start', dataDir: '', port: 0 })).toBeNull();
    expect(parseParentMessage({ type: 'start', dataDir: '/data', port: -1 })).toBeNull();
  });

  it("carries the app's admin requests and their answers, and refuses malformed ones", () => {
    expect(parseParentMessage({ type: 'admin', requestId: 3, op: 'keys' })).toEqual({ type: 'admin', requestId: 3, op: 'keys' });
    expect(parseParentMessage({ type: 'admin', requestId: 4, op: 'restore-full-access', prefer: 'k' })).toEqual({ type: 'admin', requestId: 4, op: 'restore-full-access', prefer: 'k' });
    expect(parseParentMessage({ type: 'admin', requestId: 5, op: 'drop-database' })).toBeNull();
    expect(parseParentMessage({ type: 'admin', op: 'keys' })).toBeNull();

    const key = { id: 'i', authKey: 'k', authSecret: 's', description: '', isActive: true, scopes: null, fullScope: true };
    expect(parseChildMessage({ type: 'admin-result', requestId: 4, answer: { op: 'restore-full-access', key, action: 'reactivated' } })).toEqual({
      type: 'admin-result',
      requestId: 4,
      answer: { op: 'restore-full-access', key, action: 'reactivated' },
    });
    expect(parseChildMessage({ type: 'admin-result', requestId: 3, answer: { op: 'keys', keys: [{ ...key, isActive: 'yes' }] } })).toEqual({
      type: 'admin-failed',
      requestId: 3,
      message: 'The local service sent an unreadable answer.',
    });
    expect(parseChildMessage({ type: 'admin-failed', requestId: 3, message: 'boom' })).toEqual({ type: 'admin-failed', requestId: 3, message: 'boom' });
  });
});
