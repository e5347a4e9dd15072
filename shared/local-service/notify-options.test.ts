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

  it('refuses an allow-list entry that could never match, naming the variable, the entry and why', () => {
    expect(() => notifyOptionsFromEnv({ ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS: 'loopback, https://hooks.example.com/x' })).toThrow(
      'ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS has a bad entry: "https://hooks.example.com/x" is a URL, not a host: use hooks.example.com.',
    );
    expect(() => notifyOptionsFromEnv({ ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS: '*.*,exa mple.com' })).toThrow(
      'ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS has bad entries: "*.*" may hold "*" only as a whole label at the start, as in *.example.com; "exa mple.com" has a space inside',
    );
    // "*" is no rule here: an unset list already means anywhere.
    expect(() => notifyOptionsFromEnv({ ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS: '*' })).toThrow('"*" is not a rule of this list');
  });

  it('travels in the start message, and malformed options are dropped there', () => {
    const start = { type: 'start', dataDir: '/data', port: 0, notifications: { retryDelaysMs: [1, 1, 2], signatureAlgo: 'sha384' } };
    expect(parseParentMessage(start)).toEqual(start);
    expect(parseParentMessage({ ...start, notifications: { retryDelaysMs: [-1] } })).toEqual({ type: 'start', dataDir: '/data', port: 0 });
    expect(parseNotifyOptions({ timeoutMs: 10 })).toBeNull();
    expect(parseNotifyOptions({ allowedHosts: ['loopback'] })).toEqual({ allowedHosts: ['loopback'] });
    // Rules go on as given: the service checks them and refuses to start with a bad one (never "anywhere").
    expect(parseNotifyOptions({ allowedHosts: ['https://x/y'] })).toEqual({ allowedHosts: ['https://x/y'] });
  });
});
