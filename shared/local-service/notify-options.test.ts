import { describe, expect, it } from 'vitest';
import { parseParentMessage } from './child-messages';
import { notifyOptionsFromEnv, parseNotifyOptions } from './notify-options';

describe('the embedded service notify options', () => {
  it('reads short retry delays and the other options from the environment', () => {
    expect(notifyOptionsFromEnv({ ASSEMBLYLINE_NOTIFY_RETRY_DELAYS: '1000, 1000,2000' })).toEqual({ retryDelaysMs: [1000, 1000, 2000] });
    expect(notifyOptionsFromEnv({ ASSEMBLYLINE_NOTIFY_RETRY_DELAYS: 'none', ASSEMBLYLINE_NOTIFY_TIMEOUT_MS: '500', ASSEMBLYLINE_NOTIFY_SIGNATURE: 'sha256', ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS: 'loopback, *.Example.com' })).toEqual({
      retryDelaysMs: [],
      timeoutMs: 500,
      signatureAlgo: 'sha256',
      allowedHosts: ['loopback', '*.example.com'],
    });
    expect(notifyOptionsFromEnv({})).toEqual({});
  });

  it('refuses a malformed variable by name instead of guessing', () => {
    expect(() => notifyOptionsFromEnv({ ASSEMBLYLINE_NOTIFY_RETRY_DELAYS: '1,two' })).toThrow(/ASSEMBLYLINE_NOTIFY_RETRY_DELAYS/);
    expect(() => notifyOptionsFromEnv({ ASSEMBLYLINE_NOTIFY_TIMEOUT_MS: '5' })).toThrow(/ASSEMBLYLINE_NOTIFY_TIMEOUT_MS/);
    expect(() => notifyOptionsFromEnv({ ASSEMBLYLINE_NOTIFY_SIGNATURE: 'md5' })).toThrow(/ASSEMBLYLINE_NOTIFY_SIGNATURE/);
  });

  it('travels in the start message, and malformed options are dropped there', () => {
    const start = { type: 'start', dataDir: '/data', port: 0, notifications: { retryDelaysMs: [1, 1, 2], signatureAlgo: 'sha384' } };
    expect(parseParentMessage(start)).toEqual(start);
    expect(parseParentMessage({ ...start, notifications: { retryDelaysMs: [-1] } })).toEqual({ type: 'start', dataDir: '/data', port: 0 });
    expect(parseNotifyOptions({ timeoutMs: 10 })).toBeNull();
    expect(parseNotifyOptions({ allowedHosts: ['loopback'] })).toEqual({ allowedHosts: ['loopback'] });
  });
});
