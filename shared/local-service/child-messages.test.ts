import { describe, expect, it } from 'vitest';
import { parseChildMessage, parseParentMessage } from './child-messages';

describe('messages between core and the service process', () => {
  it('takes a well-formed ready and failure from the child, and nothing else', () => {
    const ready = { type: 'ready', url: 'http://127.0.0.1:4000', port: 4000, authKey: 'k', authSecret: 's' };
    expect(parseChildMessage(ready)).toEqual(ready);
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
});
