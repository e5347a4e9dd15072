import { describe, expect, it } from 'vitest';
import { checkStackVersion, stackVersionNotes, stackVersionProblem } from './stack-version';

describe('encoding stack versions, exactly as the spec lists them', () => {
  it('accepts v6, v7, v8, the pattern, legacy exact versions and deprecated v5.x, ranked', () => {
    const status = (v: string) => {
      const c = checkStackVersion('ffmpeg_stack', v);
      return c.ok ? c.status : c.problem;
    };
    expect(['v6', 'v7', 'v8', '7', 'v7.1', 'v8.0.1', '6.1.2'].map(status)).toEqual(Array(7).fill('current'));
    expect(['v6.0.0', 'v7.0.0', 'v8.0.0', '6.0.0'].map(status)).toEqual(Array(4).fill('legacy'));
    expect(['v5', 'v5.1', 'v5.4.2', '5'].map(status)).toEqual(Array(4).fill('deprecated'));
  });

  it('refuses everything else, naming the key, the value and what is accepted', () => {
    for (const bad of ['banana', 'v4', 'v9', 'V7', 'v7.', 'v7.1.2.3', 'v7-beta', ' v7', 'latest', '']) {
      const c = checkStackVersion('ffmpeg_stack', bad);
      expect(c.ok, bad).toBe(false);
      if (!c.ok) expect(c.problem).toBe(`ffmpeg_stack ${JSON.stringify(bad)} is not a stack version; use "v6", "v7", "v8" or a version such as "v7.1" (default "v6.0.0", "v7" recommended)`);
    }
    const notString = checkStackVersion('ffmpeg_stack', 7);
    expect(notString.ok).toBe(false);
    if (!notString.ok) expect(notString.problem).toMatch(/^ffmpeg_stack must be a string: .*\(got 7\)$/);
  });

  it('finds the refused key of a step; absent, null and `${…}` values are left alone', () => {
    expect(stackVersionProblem({ robot: '/video/encode', ffmpeg_stack: 'banana' })).toMatchObject({ parameter: 'ffmpeg_stack' });
    expect(stackVersionProblem({ robot: '/video/encode' })).toBeNull();
    expect(stackVersionProblem({ robot: '/video/encode', ffmpeg_stack: null })).toBeNull();
    expect(stackVersionProblem({ robot: '/video/encode', ffmpeg_stack: 'v7' })).toBeNull();
    const deferred = (v: unknown) => typeof v === 'string' && v.includes('${');
    expect(stackVersionProblem({ ffmpeg_stack: '${fields.stack}' }, deferred)).toBeNull();
    expect(stackVersionProblem({ ffmpeg_stack: '${fields.stack}' })).not.toBeNull();
  });

  it('notes deprecated and legacy versions (accepted, not advised), nothing for current or refused ones', () => {
    const notes = stackVersionNotes({
      a: { robot: '/video/encode', ffmpeg_stack: 'v5.2' },
      b: { robot: '/video/encode', ffmpeg_stack: 'v6.0.0' },
      c: { robot: '/video/encode', ffmpeg_stack: 'v7' },
      d: { robot: '/video/encode', ffmpeg_stack: 'banana' },
      e: { robot: '/video/encode' },
    });
    expect(notes).toEqual([
      { step: 'a', parameter: 'ffmpeg_stack', message: 'ffmpeg_stack "v5.2" is deprecated (still accepted); "v7" is recommended.' },
      { step: 'b', parameter: 'ffmpeg_stack', message: 'ffmpeg_stack "v6.0.0" is a legacy exact version (still accepted); "v7" is recommended.' },
    ]);
    expect(stackVersionNotes(null)).toEqual([]);
  });
});
