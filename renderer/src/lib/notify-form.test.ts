import { describe, expect, it } from 'vitest';
import { notifyUrlProblem, withNotify } from './notify-form';

const steps = { ':original': { robot: '/upload/handle' } };

describe('the Upload view notify field', () => {
  it('adds notify_url and what the notification leaves out, in the service order', () => {
    expect(withNotify({ steps }, { url: ' http://127.0.0.1:4000/hook ', leaveOut: ['without_results', 'without_uploads'] })).toEqual({
      steps,
      notify_url: 'http://127.0.0.1:4000/hook',
      notification_payload: ['without_results', 'without_uploads'],
    });
    expect(withNotify({ template_id: 't' }, { url: 'https://example.com/h', leaveOut: [] })).toEqual({ template_id: 't', notify_url: 'https://example.com/h' });
  });

  it('sends nothing about notifications without a (valid) URL', () => {
    expect(withNotify({ steps }, { url: '', leaveOut: ['without_results'] })).toEqual({ steps });
    expect(withNotify({ steps }, { url: 'ftp://x', leaveOut: [] })).toEqual({ steps });
  });

  it('says what is wrong with a URL the service would refuse', () => {
    expect(notifyUrlProblem('')).toBeNull();
    expect(notifyUrlProblem('https://example.com/webhook')).toBeNull();
    expect(notifyUrlProblem('example.com/webhook')).toMatch(/http:\/\/ or https:\/\//);
    expect(notifyUrlProblem('ftp://example.com')).toMatch(/http:\/\/ or https:\/\//);
    expect(notifyUrlProblem(`https://e.com/${'a'.repeat(2050)}`)).toMatch(/2048/);
  });
});
