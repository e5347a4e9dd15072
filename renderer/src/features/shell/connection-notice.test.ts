import { describe, expect, it } from 'vitest';
import type { ServiceStatus } from '../../../../shared/ipc/service-models';
import { connectionNotice } from './connection-notice';

const status = (over: Partial<ServiceStatus>): ServiceStatus => ({ phase: 'running', url: 'http://127.0.0.1:1', restarts: 0, retryInMs: null, message: null, ...over });

describe('connectionNotice', () => {
  it('puts a lost link to the app first, whatever the service does', () => {
    expect(connectionNotice(false, status({ phase: 'restarting' }), true)).toMatchObject({ tone: 'danger', title: 'Disconnected from Assemblyline.' });
  });

  it('says when the local service hangs or restarts, and why', () => {
    expect(connectionNotice(true, status({ phase: 'unresponsive' }), true)?.title).toBe('Local service not responding.');
    const restarting = connectionNotice(true, status({ phase: 'restarting', message: 'the local service was ended by SIGKILL' }), true);
    expect(restarting?.title).toBe('Local service restarting…');
    expect(restarting?.detail).toContain('SIGKILL');
    expect(connectionNotice(true, status({ phase: 'starting', restarts: 1 }), true)?.title).toBe('Local service restarting…');
  });

  it('stays quiet when all is well, and for a remote workspace', () => {
    expect(connectionNotice(true, status({}), true)).toBeNull();
    expect(connectionNotice(true, status({ phase: 'restarting' }), false)).toBeNull();
    expect(connectionNotice(true, null, true)).toBeNull();
  });
});
