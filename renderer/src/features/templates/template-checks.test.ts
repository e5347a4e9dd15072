import { describe, expect, it } from 'vitest';
import { checkTemplateText, lineOfProblem } from './template-checks';

const text = (v: unknown) => JSON.stringify(v, null, 2);

describe('checkTemplateText', () => {
  it('accepts any JSON value, and valid steps', () => {
    expect(checkTemplateText('42').kind).toBe('ok');
    expect(checkTemplateText(text({ steps: { ':original': { robot: '/upload/handle' }, s: { robot: '/image/resize', use: ':original' } } })).kind).toBe('ok');
    // Robots the local service does not run still exist elsewhere.
    expect(checkTemplateText(text({ steps: { ':original': { robot: '/upload/handle' }, s: { robot: '/s3/store', use: ':original' } } })).kind).toBe('ok');
  });

  it("marks every parameter problem as the user types, each at its line, not the first one only", () => {
    const t = text({ steps: { ':original': { robot: '/upload/handle' }, resize: { robot: '/image/resize', use: ':original', width: 'wide', heigth: 200, resize_strategy: 'squash' }, thumbs: { robot: '/video/thumbs', use: ':original', count: 1000 } } });
    const check = checkTemplateText(t);
    expect(check.kind).toBe('invalid');
    if (check.kind !== 'invalid') return;
    const lines = t.split('\n');
    expect(check.problems.map((p) => [p.code, p.parameter, lines[p.line - 1]!.trim()])).toEqual([
      ['IMAGE_RESIZE_VALIDATION', 'width', '"width": "wide",'],
      ['IMAGE_RESIZE_VALIDATION', 'heigth', '"heigth": 200,'],
      ['IMAGE_RESIZE_VALIDATION', 'resize_strategy', '"resize_strategy": "squash"'],
      ['VIDEO_THUMBS_INVALID_COUNT_VALUE', 'count', '"count": 1000'],
    ]);
    expect(check.problems[1]?.message).toContain('Did you mean "height"?');
  });

  it('reports JSON syntax errors with line and column', () => {
    const check = checkTemplateText('{\n  "steps": {\n    "a": 1,\n  }\n}');
    expect(check.kind).toBe('syntax');
    if (check.kind === 'syntax') expect([check.error.line, check.error.column]).toEqual([4, 3]);
  });

  it('names unknown robots, missing steps in use and loops, at their lines', () => {
    const t = text({
      steps: {
        resized: { robot: '/image/resize', use: ':original' },
        typo: { robot: '/image/resise', use: 'resized' },
        ghost: { robot: '/image/resize', use: 'nowhere' },
        a: { robot: '/image/resize', use: 'b' },
        b: { robot: '/image/resize', use: 'a' },
      },
      allow_steps_override: 'yes',
    });
    const check = checkTemplateText(t);
    expect(check.kind).toBe('invalid');
    if (check.kind !== 'invalid') return;
    const byCode = (code: string) => check.problems.filter((p) => p.code === code);
    // The line of the key at fault: "robot" of typo, "use" of ghost.
    expect(byCode('ASSEMBLY_STEP_UNKNOWN_ROBOT')).toEqual([expect.objectContaining({ step: 'typo', line: 8 })]);
    expect(byCode('ASSEMBLY_STEP_UNKNOWN_USE')).toEqual([expect.objectContaining({ step: 'ghost', line: 13 })]);
    // ":original" may be used without being declared (the service's rule).
    expect(check.problems.some((p) => p.step === 'resized')).toBe(false);
    expect(byCode('ASSEMBLY_INFINITE')[0]?.message).toMatch(/a → b → a/);
    expect(byCode('INVALID_TEMPLATE_FIELD')).toEqual([expect.objectContaining({ line: 24 })]);
    expect(check.problems.map((p) => p.line)).toEqual([...check.problems.map((p) => p.line)].sort((x, y) => x - y));
  });

  it('lints a Smart CDN Template (one with /file/serve) at the line of the refused robot, with the linter rule', () => {
    const t = text({
      steps: {
        ':original': { robot: '/upload/handle' },
        small: { robot: '/image/resize', use: ':original', width: 200 },
        exported: { robot: '/sftp/store', use: 'small', credentials: 'ftp' },
        served: { robot: '/file/serve', use: 'small' },
      },
    });
    const check = checkTemplateText(t);
    expect(check.kind).toBe('invalid');
    if (check.kind !== 'invalid') return;
    expect(check.problems).toEqual([expect.objectContaining({ code: 'smart-cdn-robot-not-allowed', step: 'exported', line: t.split('\n').findIndex((l) => l.includes('"/sftp/store"')) + 1 })]);
    expect(check.problems[0]!.message).toMatch(/Step "exported" uses \/sftp\/store, which the Smart CDN does not run/);
    // Without /file/serve it is an ordinary Template: exporting is fine.
    expect(checkTemplateText(t.replace('"/file/serve"', '"/image/optimize"')).kind).toBe('ok');
  });

  it('lints a Smart CDN Template with too many steps at the first step over the limit', () => {
    const steps: Record<string, unknown> = { ':original': { robot: '/upload/handle' } };
    for (let i = 1; i <= 10; i++) steps[`s${i}`] = { robot: '/image/resize', use: i === 1 ? ':original' : `s${i - 1}` };
    steps.served = { robot: '/file/serve', use: 's10' };
    const t = text({ steps });
    const check = checkTemplateText(t);
    expect(check.kind).toBe('invalid');
    if (check.kind !== 'invalid') return;
    expect(check.problems).toEqual([expect.objectContaining({ code: 'smart-cdn-max-steps-exceeded', step: 's10', line: t.split('\n').findIndex((l) => l.includes('"s10": {')) + 1 })]);
  });

  it('marks a bad tool server of a chat step at the line of the key at fault, with its code', () => {
    const t = text({ steps: { asked: { robot: '/ai/chat', use: ':original', messages: 'Hi', mcp_servers: [{ type: 'http', url: 'ftp://x/mcp' }] } } });
    const check = checkTemplateText(t);
    expect(check.kind).toBe('invalid');
    if (check.kind !== 'invalid') return;
    // The line of the entry's "url", not just of "mcp_servers".
    expect(check.problems).toEqual([expect.objectContaining({ code: 'MCP_SERVER_INVALID_URL', step: 'asked', parameter: 'mcp_servers', line: 10 })]);
    expect(check.problems[0]?.message).toContain('mcp_servers[0].url must be an http(s) URL');
  });

  it('finds the line of a step, a parameter, or falls back to "steps"', () => {
    const t = '{\n "steps": {\n  "x": {\n   "robot": "/image/resize",\n   "width": 99999\n  }\n }\n}';
    expect(lineOfProblem(t, { step: 'x', parameter: 'width' })).toBe(5);
    expect(lineOfProblem(t, { step: 'x' })).toBe(3);
    expect(lineOfProblem(t, { step: 'x', parameter: 'height' })).toBe(3);
    expect(lineOfProblem(t, { step: 'missing' })).toBe(2);
    expect(lineOfProblem('{}', {})).toBe(1);
  });
});
