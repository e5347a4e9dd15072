import { describe, expect, it } from 'vitest';
import { ALL_ROBOTS, isKnownRobot, isRealRobot } from './known-robots';
import { checkSteps, checkTemplateContent } from './step-rules';

const editor = { robotExists: isRealRobot };
const local = { robotExists: isKnownRobot, unknownRobotReason: 'the local service does not support' };

describe('checkSteps: one set of rules for the editors and the local service', () => {
  it('gives every problem, one per step, each with its step and the key at fault', () => {
    const problems = checkSteps(
      {
        ':original': { robot: '/upload/handle' },
        typo: { robot: 'image/resize', use: ':original' },
        nouse: { robot: '/image/resize' },
        ghost: { robot: '/image/resize', use: ['nowhere'] },
        fine: { robot: '/image/resize', use: ':original' },
      },
      editor,
    );
    expect(problems.map((p) => [p.code, p.step, p.parameter])).toEqual([
      ['ASSEMBLY_STEP_UNKNOWN_ROBOT', 'typo', 'robot'],
      ['ASSEMBLY_STEP_INVALID_USE', 'nouse', 'robot'],
      ['ASSEMBLY_STEP_UNKNOWN_USE', 'ghost', 'use'],
    ]);
    expect(problems[0]?.message).toContain('Did you mean "/image/resize"?');
  });

  it('checks the encoding stack version at its key, with the robot\'s validation code', () => {
    const problems = checkSteps(
      {
        ':original': { robot: '/upload/handle', ffmpeg_stack: 'v9' },
        video: { robot: '/video/encode', use: ':original', ffmpeg_stack: 'banana' },
        thumbs: { robot: '/video/thumbs', use: ':original', ffmpeg_stack: 'v7' },
        old: { robot: '/audio/encode', use: ':original', ffmpeg_stack: 'v5.2' },
      },
      editor,
    );
    expect(problems.map((p) => [p.code, p.step, p.parameter])).toEqual([
      ['UPLOAD_HANDLE_VALIDATION', ':original', 'ffmpeg_stack'],
      ['VIDEO_ENCODE_VALIDATION', 'video', 'ffmpeg_stack'],
    ]);
    expect(problems[1]?.message).toBe(
      'Step "video" (/video/encode): ffmpeg_stack "banana" is not a stack version; use "v6", "v7", "v8" or a version such as "v7.1" (default "v6.0.0", "v7" recommended).',
    );
    // A missing "use" is the step's first problem; the stack version waits for it.
    expect(checkSteps({ v: { robot: '/video/encode', ffmpeg_stack: 'banana' } }, local).map((p) => p.code)).toEqual(['ASSEMBLY_STEP_INVALID_USE']);
  });

  it('knows robots by the caller: every real robot for the editors, the ones it runs for the local service', () => {
    const steps = { ':original': { robot: '/upload/handle' }, yt: { robot: '/youtube/store', use: ':original' } };
    expect(ALL_ROBOTS).toContain('/youtube/store');
    expect(checkSteps(steps, editor)).toEqual([]);
    const [refused] = checkSteps(steps, local);
    expect(refused?.message).toBe('Step "yt" uses the robot "/youtube/store", which the local service does not support.');
  });

  it('reports one loop, naming it, and a step that uses itself once', () => {
    const loop = checkSteps({ a: { robot: '/image/resize', use: 'b' }, b: { robot: '/image/resize', use: 'a' } }, editor);
    expect(loop).toEqual([expect.objectContaining({ code: 'ASSEMBLY_INFINITE', step: 'a', parameter: 'use' })]);
    expect(loop[0]?.message).toContain('a → b → a');
    expect(checkSteps({ a: { robot: '/image/resize', use: 'a' } }, editor).map((p) => p.code)).toEqual(['ASSEMBLY_INFINITE']);
  });

  it('checks the shape of the whole first', () => {
    expect(checkSteps(undefined, editor)[0]?.code).toBe('ASSEMBLY_NO_STEPS');
    expect(checkSteps([], editor)[0]?.code).toBe('ASSEMBLY_INVALID_STEPS');
    expect(checkSteps({}, editor)[0]?.code).toBe('ASSEMBLY_EMPTY_STEPS');
  });
});

describe('checkTemplateContent', () => {
  it('accepts any JSON value, checks steps when there are some, and allow_steps_override', () => {
    for (const content of [42, 'text', null, [], { fields: { a: 1 } }]) expect(checkTemplateContent(content, editor)).toEqual([]);
    expect(checkTemplateContent({ steps: { x: { robot: '/nope', use: ':original' } }, allow_steps_override: 1 }, editor).map((p) => [p.code, p.step, p.parameter])).toEqual([
      ['ASSEMBLY_STEP_UNKNOWN_ROBOT', 'x', 'robot'],
      ['INVALID_TEMPLATE_FIELD', undefined, 'allow_steps_override'],
    ]);
  });
});

describe('the Smart CDN lint of a Template with /file/serve', () => {
  const served = { robot: '/file/serve', use: ':original' };
  it('marks robots off the allow-list and steps over the limit under the linter rule names', () => {
    const content = { steps: { ':original': { robot: '/upload/handle' }, exported: { robot: '/sftp/store', use: ':original' }, served } };
    expect(checkTemplateContent(content, editor).map((p) => [p.code, p.step, p.parameter])).toEqual([['smart-cdn-robot-not-allowed', 'exported', 'robot']]);
    const many = { steps: { ...Object.fromEntries(Array.from({ length: 10 }, (_, i) => [`f${i}`, { robot: '/file/filter', use: ':original' }])), served } };
    expect(checkTemplateContent(many, editor).map((p) => [p.code, p.step])).toEqual([['smart-cdn-max-steps-exceeded', 'served']]);
  });

  it('leaves Templates without /file/serve alone, and does not mark a step twice', () => {
    expect(checkTemplateContent({ steps: { ':original': { robot: '/upload/handle' }, exported: { robot: '/sftp/store', use: ':original' } } }, editor)).toEqual([]);
    const typo = { steps: { ':original': { robot: '/upload/handle' }, t: { robot: '/image/resise', use: ':original' }, served } };
    expect(checkTemplateContent(typo, editor).map((p) => p.code)).toEqual(['ASSEMBLY_STEP_UNKNOWN_ROBOT']);
  });
});
