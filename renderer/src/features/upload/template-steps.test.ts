import { describe, expect, it } from 'vitest';
import { templateSteps } from './template-steps';

describe('templateSteps', () => {
  it('lists the steps in the order written, with their robots and what they make', () => {
    const content = {
      steps: {
        ':original': { robot: '/upload/handle' },
        resized: { use: ':original', robot: '/image/resize', width: 1024, format: 'jpg' },
        thumbs: { use: ':original', robot: '/video/thumbs', count: 1, width: 320, height: 180 },
        encoded: { use: ':original', robot: '/video/encode', preset: 'ipad-high' },
        exported: { use: ['resized', 'thumbs'], robot: '/s3/store' },
      },
    };
    expect(templateSteps(content)).toEqual([
      { name: ':original', robot: '/upload/handle', detail: null },
      { name: 'resized', robot: '/image/resize', detail: '1024×…, jpg' },
      { name: 'thumbs', robot: '/video/thumbs', detail: '320×180, 1 thumb' },
      { name: 'encoded', robot: '/video/encode', detail: 'ipad-high' },
      { name: 'exported', robot: '/s3/store', detail: null },
    ]);
  });

  it('copes with content that has no steps or malformed ones', () => {
    expect(templateSteps(null)).toEqual([]);
    expect(templateSteps({ steps: [] })).toEqual([]);
    expect(templateSteps({ steps: { odd: 'text', bare: { use: ':original' } } })).toEqual([
      { name: 'odd', robot: null, detail: null },
      { name: 'bare', robot: null, detail: null },
    ]);
  });
});
