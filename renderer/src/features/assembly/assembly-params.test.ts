import { describe, expect, it } from 'vitest';
import { paramFacts } from './assembly-params';

describe('paramFacts', () => {
  it('lists the limits, referer, notification payload and stack versions the request set', () => {
    const params = JSON.stringify({
      auth: { key: '****', expires: '2026-01-01T00:00:00.000Z', max_size: 2_000_000, max_number_of_files: 3, referer: '^https://a\\.b/' },
      notification_payload: ['without_results'],
      steps: { ':original': { robot: '/upload/handle' }, mp4: { robot: '/video/encode', ffmpeg_stack: 'v7' } },
    });
    expect(paramFacts(params)).toEqual([
      { label: 'Max size (max_size)', value: '2.0 MB · 2,000,000 bytes' },
      { label: 'Max files (max_number_of_files)', value: '3' },
      { label: 'Referer', value: '^https://a\\.b/' },
      { label: 'Notification payload', value: 'without_results' },
      { label: 'Encoding stack (ffmpeg_stack)', value: 'mp4: v7' },
    ]);
  });
  it('lists nothing for plain or unreadable params', () => {
    expect(paramFacts(JSON.stringify({ auth: { key: 'k' }, steps: {} }))).toEqual([]);
    expect(paramFacts('{ nope')).toEqual([]);
    expect(paramFacts(undefined)).toEqual([]);
  });
});
