import { describe, expect, it } from 'vitest';
import { ALL_ROBOTS } from './known-robots';
import { isSmartCdnRobot, isSmartCdnTemplate, SMART_CDN_MAX_STEPS, SMART_CDN_ROBOTS, smartCdnProblems } from './smart-cdn-rules';

const chain = (n: number): Record<string, unknown> =>
  Object.fromEntries([[':original', { robot: '/upload/handle' }], ...Array.from({ length: n - 1 }, (_, i) => [`s${i + 1}`, { robot: '/image/resize', use: i === 0 ? ':original' : `s${i}` }])]);

describe('Smart CDN rules', () => {
  it('allows robots that import, transform or serve, and no robot that stores, notifies, runs scripts or calls a model', () => {
    for (const r of ['/upload/handle', '/transloadit/import', '/s3/import', '/file/filter', '/file/serve', '/image/resize', '/image/optimize', '/video/thumbs', '/video/encode', '/audio/waveform', '/document/thumbs']) {
      expect(isSmartCdnRobot(r), r).toBe(true);
    }
    const refused = ['/sftp/store', '/transloadit/store', '/ai/chat', '/http/import', '/html/convert', '/script/run', '/image/describe', '/image/generate', '/speech/transcribe', '/text/translate', '/assembly/savejson'];
    for (const r of refused) expect(isSmartCdnRobot(r), r).toBe(false);
    expect(ALL_ROBOTS.filter((r) => r.endsWith('/store')).filter(isSmartCdnRobot)).toEqual([]);
    // Every allowed name is a real robot: a typo in the list would allow nothing.
    expect(SMART_CDN_ROBOTS.filter((r) => !ALL_ROBOTS.includes(r))).toEqual([]);
  });

  it('marks a Template with a /file/serve step as a Smart CDN Template, and nothing else', () => {
    expect(isSmartCdnTemplate({ ':original': { robot: '/upload/handle' }, served: { robot: '/file/serve', use: ':original' } })).toBe(true);
    expect(isSmartCdnTemplate({ ':original': { robot: '/upload/handle' } })).toBe(false);
    expect(isSmartCdnTemplate(null)).toBe(false);
    expect(isSmartCdnTemplate([{ robot: '/file/serve' }])).toBe(false);
  });

  it('names each step with a robot off the list, with the rule, the code and the robot', () => {
    const problems = smartCdnProblems({
      ':original': { robot: '/upload/handle' },
      export: { robot: '/sftp/store', use: ':original' },
      described: { robot: '/ai/chat', use: ':original' },
      served: { robot: '/file/serve', use: ':original' },
      broken: 'not a step',
    });
    expect(problems.map((p) => [p.rule, p.code, p.step, p.parameter, p.robot])).toEqual([
      ['smart-cdn-robot-not-allowed', 'CDN_TEMPLATE_ROBOT_NOT_ALLOWED', 'export', 'robot', '/sftp/store'],
      ['smart-cdn-robot-not-allowed', 'CDN_TEMPLATE_ROBOT_NOT_ALLOWED', 'described', 'robot', '/ai/chat'],
    ]);
    expect(problems[0]!.message).toMatch(/^Step "export" uses \/sftp\/store, which the Smart CDN does not run/);
  });

  it(`allows ${SMART_CDN_MAX_STEPS} steps and refuses one more, at the first step over the limit`, () => {
    expect(smartCdnProblems(chain(SMART_CDN_MAX_STEPS))).toEqual([]);
    const over = smartCdnProblems(chain(SMART_CDN_MAX_STEPS + 2));
    expect(over).toHaveLength(1);
    expect(over[0]).toMatchObject({ rule: 'smart-cdn-max-steps-exceeded', code: 'CDN_TEMPLATE_TOO_MANY_STEPS', step: `s${SMART_CDN_MAX_STEPS}` });
    expect(over[0]!.message).toContain(`at most ${SMART_CDN_MAX_STEPS} steps; this one has ${SMART_CDN_MAX_STEPS + 2}`);
  });

  it('leaves malformed values to the step rules', () => {
    expect(smartCdnProblems(undefined)).toEqual([]);
    expect(smartCdnProblems('steps')).toEqual([]);
    expect(smartCdnProblems({ a: { robot: 42 }, b: { use: ':original' } })).toEqual([]);
  });
});
