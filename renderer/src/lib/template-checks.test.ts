import { describe, expect, it } from 'vitest';
import { checkTemplateText, findLoop, lineOfKey } from './template-checks';

const text = (v: unknown) => JSON.stringify(v, null, 2);

describe('checkTemplateText', () => {
  it('accepts any JSON value, and valid steps', () => {
    expect(checkTemplateText('42').kind).toBe('ok');
    expect(checkTemplateText(text({ steps: { ':original': { robot: '/upload/handle' }, s: { robot: '/image/resize', use: ':original' } } })).kind).toBe('ok');
    // Robots the local service does not run still exist elsewhere.
    expect(checkTemplateText(text({ steps: { ':original': { robot: '/upload/handle' }, s: { robot: '/s3/store', use: ':original' } } })).kind).toBe('ok');
  });

  it('reports JSON syntax errors with line and column', () => {
    const check = checkTemplateText('{\n  "steps": {\n    "a": 1,\n  }\n}');
    expect(check.kind).toBe('syntax');
    if (check.kind === 'syntax') expect([check.error.line, check.error.column]).toEqual([4, 3]);
  });

  it('names unknown robots, missing steps in use, a missing :original and loops, at their lines', () => {
    const t = text({
      steps: {
        resized: { robot: '/image/resize', use: ':original' },
        typo: { robot: '/image/resise', use: 'resized' },
        ghost: { robot: '/image/resize', use: 'nowhere' },
        a: { robot: '/image/resize', use: 'b' },
        b: { robot: '/image/resize', use: 'a' },
      },
    });
    const check = checkTemplateText(t);
    expect(check.kind).toBe('invalid');
    if (check.kind !== 'invalid') return;
    const byCode = (code: string) => check.problems.filter((p) => p.code === code);
    expect(byCode('ASSEMBLY_STEP_UNKNOWN_ROBOT')).toEqual([expect.objectContaining({ step: 'typo', line: 7 })]);
    const unknownUse = byCode('ASSEMBLY_STEP_UNKNOWN_USE');
    expect(unknownUse.find((p) => p.step === 'resized')?.message).toMatch(/no ":original" step/);
    expect(unknownUse.find((p) => p.step === 'ghost')).toMatchObject({ line: 11 });
    expect(byCode('ASSEMBLY_INFINITE')[0]?.message).toMatch(/a → b → a/);
    expect(check.problems.map((p) => p.line)).toEqual([...check.problems.map((p) => p.line)].sort((x, y) => x - y));
  });

  it('finds keys and loops', () => {
    expect(lineOfKey('{\n "steps": {\n  "x": {}\n }\n}', 'x')).toBe(3);
    expect(lineOfKey('{\n "steps": {}\n}', 'missing')).toBe(2);
    expect(findLoop({ a: { use: 'b' }, b: { use: ['c'] }, c: { use: 'a' } })).toEqual(['a', 'b', 'c', 'a']);
    expect(findLoop({ a: { use: ':original' } })).toBeNull();
  });
});
