// The pure rules of notifications: payload filter, signature form, URL checks, retry schedule, flags.
import { createHmac } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { AssemblyState } from '../assemblies/assembly-state';
import { notifyOptionsFromFlags } from './notify-flags';
import { filterPayload, notificationBody, parseNotificationPayload, signNotification } from './notify-payload';
import { notificationListing, notifyStatusFields, queueDelivery, recordAttempt } from './notify-state';
import { checkNotifyUrl, hostAllowed, isLoopbackHost } from './notify-url';

describe('signNotification', () => {
  // service-facts.md §3: the notify-relay vector, and the same input computed with sha1.
  it('sends sha1 as bare hex and other algorithms prefixed, matching the published vectors', () => {
    expect(signNotification('{"ok":"ASSEMBLY_COMPLETED"}', 'foo_secret')).toBe('9c31e806b2f3ac4d7cf69d7c29ccf6806b9ee073');
    expect(signNotification('{"ok":"ASSEMBLY_COMPLETED"}', 'foo_secret', 'sha384')).toBe(
      'sha384:bf26800c5256b38bbf9375c76894d5b649751903973f99d0f036c8e52f6cda287bed711b73c21dbde4d4df6c8fc540a1',
    );
    expect(signNotification('{"ok":"ASSEMBLY_COMPLETED"}', 'foo_secret', 'sha256')).toBe('sha256:a7fed5f29dc073713ea923e2b8e563c516fc38083565fa7bdd06215573e4a4d9');
  });

  it('signs the exact string that goes into the urlencoded body, non-ASCII included', () => {
    const text = JSON.stringify({ fields: { title: 'Ünïcode & spaces = +' } });
    const body = new URLSearchParams(notificationBody(text, signNotification(text, 's3cret')));
    expect(body.get('transloadit')).toBe(text);
    expect(body.get('signature')).toBe(createHmac('sha1', 's3cret').update(text, 'utf8').digest('hex'));
  });
});

describe('notification_payload', () => {
  const status = {
    ok: 'ASSEMBLY_COMPLETED',
    uploads: [{ id: 'u', meta: { width: 1 } }],
    results: { thumb: [{ id: 'r', meta: { width: 2 } }] },
  };
  it('parses the four options and refuses anything else', () => {
    expect(parseNotificationPayload(undefined)).toEqual([]);
    expect(parseNotificationPayload(['without_results', 'without_results'])).toEqual(['without_results']);
    expect(parseNotificationPayload('without_uploads')).toEqual(['without_uploads']);
    expect(typeof parseNotificationPayload(['everything'])).toBe('string');
    expect(typeof parseNotificationPayload({ a: 1 })).toBe('string');
  });
  it('leaves out uploads, results or their meta', () => {
    expect(filterPayload(status, [])).toEqual(status);
    expect(filterPayload(status, ['without_uploads']).uploads).toBeUndefined();
    expect(filterPayload(status, ['without_results']).results).toBeUndefined();
    expect(filterPayload(status, ['without_upload_meta_data']).uploads).toEqual([{ id: 'u', meta: {} }]);
    expect(filterPayload(status, ['without_result_meta_data']).results).toEqual({ thumb: [{ id: 'r', meta: {} }] });
    expect(status.uploads[0]!.meta).toEqual({ width: 1 }); // the input is not changed
  });
});

describe('notify_url checks', () => {
  it('takes http(s) URLs, loopback included, and refuses the rest', () => {
    expect(checkNotifyUrl('http://127.0.0.1:8080/hook', [])).toEqual({ url: 'http://127.0.0.1:8080/hook' });
    expect(checkNotifyUrl('https://example.com/x?y=1', [])).toEqual({ url: 'https://example.com/x?y=1' });
    expect(checkNotifyUrl(undefined, [])).toEqual({ url: null });
    for (const bad of ['ftp://example.com', 'mailto:a@b.c', 'no url', 12, ['http://a'], `http://a.com/${'x'.repeat(3000)}`]) {
      expect(checkNotifyUrl(bad, []), String(bad).slice(0, 40)).toHaveProperty('problem');
    }
  });
  it('restricts hosts to exact names, *.suffix and loopback when the operator says so', () => {
    expect(hostAllowed('hooks.example.com', ['hooks.example.com'])).toBe(true);
    expect(hostAllowed('evil.com', ['hooks.example.com'])).toBe(false);
    expect(hostAllowed('a.b.example.org', ['*.example.org'])).toBe(true);
    expect(hostAllowed('example.org', ['*.example.org'])).toBe(false);
    expect(hostAllowed('notexample.org', ['*.example.org'])).toBe(false);
    expect(hostAllowed('127.0.0.2', ['loopback'])).toBe(true);
    expect(hostAllowed('[::1]', ['loopback'])).toBe(true);
    expect(hostAllowed('10.0.0.1', ['loopback'])).toBe(false);
    expect(isLoopbackHost('localhost')).toBe(true);
    expect(checkNotifyUrl('http://10.0.0.1/', ['loopback'])).toHaveProperty('problem');
  });
});

describe('delivery bookkeeping', () => {
  const state = (): AssemblyState => ({ id: 'a'.repeat(32), notifyUrl: 'http://h/x' }) as AssemblyState;
  const outcome = (code: number | null, at: number, error: string | null = code !== null && code < 300 ? null : 'x') => ({ startedMs: at, durationMs: 10, responseCode: code, responseData: 'r', error });

  it('schedules retries after each delay, then gives up', () => {
    const s = state();
    const d = queueDelivery(s, 'http://h/x', false, 1000);
    expect(notifyStatusFields(s).notify_status).toBe('processing');
    recordAttempt(s, d.id, outcome(500, 1000), [100, 200]);
    expect(d).toMatchObject({ status: 'pending', dueAtMs: 1110, attempts: 1 });
    recordAttempt(s, d.id, outcome(null, 1110, 'ECONNREFUSED'), [100, 200]);
    expect(d).toMatchObject({ status: 'pending', dueAtMs: 1320 });
    recordAttempt(s, d.id, outcome(404, 1320), [100, 200]);
    expect(d).toMatchObject({ status: 'failed', dueAtMs: null, attempts: 3 });
    expect(notifyStatusFields(s)).toMatchObject({ notify_status: 'failed', notify_response_code: 404, notify_error: 'x', notify_duration: 0.01 });
    expect((notificationListing(s).items as unknown[]).length).toBe(3);
  });

  it('ends a delivery at the first 2xx, and at once when told it is final', () => {
    const s = state();
    const ok = queueDelivery(s, 'http://h/x', false, 0);
    recordAttempt(s, ok.id, outcome(204, 0), [100]);
    expect(ok).toMatchObject({ status: 'successful', dueAtMs: null });
    expect(notifyStatusFields(s).notify_status).toBe('successful');
    const doomed = queueDelivery(s, 'http://h/y', true, 0);
    recordAttempt(s, doomed.id, outcome(null, 0, 'no key'), [100], true);
    expect(doomed.status).toBe('failed');
    expect(notificationListing(s).pending).toEqual([]);
  });
});

describe('--notify-* flags', () => {
  it('parses delays, timeout, hosts and the signature algorithm, and names the bad flag', () => {
    expect(notifyOptionsFromFlags({ 'notify-retry-delays': '100, 200', 'notify-timeout-ms': '5000', 'notify-allow-hosts': 'loopback, Hooks.Example.com', 'notify-signature': 'sha384' })).toEqual({
      retryDelaysMs: [100, 200],
      timeoutMs: 5000,
      allowedHosts: ['loopback', 'hooks.example.com'],
      signatureAlgo: 'sha384',
    });
    expect(notifyOptionsFromFlags({ 'notify-retry-delays': 'none' })).toEqual({ retryDelaysMs: [] });
    expect(notifyOptionsFromFlags({ 'notify-allow-private-networks': true })).toEqual({ allowPrivateNetworks: true });
    expect(notifyOptionsFromFlags({})).toEqual({});
    expect(() => notifyOptionsFromFlags({ 'notify-retry-delays': '1,x' })).toThrow(/--notify-retry-delays/);
    expect(() => notifyOptionsFromFlags({ 'notify-timeout-ms': '5' })).toThrow(/--notify-timeout-ms/);
    expect(() => notifyOptionsFromFlags({ 'notify-signature': 'md5' })).toThrow(/--notify-signature/);
    expect(() => notifyOptionsFromFlags({ 'notify-allow-hosts': 'hooks.example.com:443' })).toThrow(
      '--notify-allow-hosts has a bad entry: "hooks.example.com:443" has a port: use hooks.example.com (any port is allowed)',
    );
    // The variable stands in for the flag, checked the same way; the flag wins.
    expect(notifyOptionsFromFlags({}, { ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS: 'Loopback' })).toEqual({ allowedHosts: ['loopback'] });
    expect(notifyOptionsFromFlags({ 'notify-allow-hosts': 'a.example' }, { ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS: 'http://b' })).toEqual({ allowedHosts: ['a.example'] });
    expect(() => notifyOptionsFromFlags({}, { ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS: 'tools.*.com' })).toThrow('ASSEMBLYLINE_NOTIFY_ALLOW_HOSTS has a bad entry: "tools.*.com"');
  });
});
