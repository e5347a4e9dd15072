import { describe, expect, it } from 'vitest';
import { PRESETS } from '../../../shared/api/presets';
import { checkStepsText, formatSteps, stepsMarkers } from './step-checks';

const problemsOf = (text: string) => {
  const r = checkStepsText(text);
  if (r.kind !== 'invalid') throw new Error(`expected invalid, got ${r.kind}`);
  return r.problems;
};

describe('checkStepsText', () => {
  it('accepts every preset', () => {
    for (const preset of PRESETS) expect(checkStepsText(formatSteps(preset.steps))).toEqual({ kind: 'ok', steps: preset.steps });
  });

  it('reports a syntax error with its position before anything else', () => {
    const r = checkStepsText('{\n  ":original": { "robot": "/upload/handle" },\n}');
    expect(r.kind).toBe('syntax');
    if (r.kind === 'syntax') expect(r.error.message).toBe('Unexpected token } at line 3, column 1');
  });

  it('needs an object with at least one step', () => {
    expect(problemsOf('[]')[0]?.code).toBe('ASSEMBLY_INVALID_STEPS');
    expect(problemsOf('{}')[0]?.code).toBe('ASSEMBLY_EMPTY_STEPS');
  });

  it('needs a robot on every step', () => {
    const problems = problemsOf('{ ":original": { "robot": "/upload/handle" }, "resized": { "use": ":original", "width": 10 } }');
    expect(problems).toEqual([{ code: 'ASSEMBLY_STEP_NO_ROBOT', step: 'resized', message: 'Step "resized" has no "robot", e.g. "/image/resize".' }]);
  });

  it('catches a use that names no step, in every use form', () => {
    expect(problemsOf('{ "a": { "robot": "/image/resize", "use": "nope" } }')[0]?.code).toBe('ASSEMBLY_STEP_UNKNOWN_USE');
    expect(problemsOf('{ ":original": { "robot": "/upload/handle" }, "a": { "robot": "/image/resize", "use": [":original", { "name": "x" }] } }')[0]?.message).toBe(
      'Step "a" uses "x", but there is no step of that name.',
    );
    expect(problemsOf('{ "a": { "robot": "/image/resize", "use": { "steps": ["b"] } } }')[0]?.code).toBe('ASSEMBLY_STEP_UNKNOWN_USE');
    expect(problemsOf('{ "a": { "robot": "/image/resize", "use": 3 } }')[0]?.code).toBe('ASSEMBLY_STEP_INVALID_USE');
  });

  it('knows /upload/handle must be named :original', () => {
    expect(problemsOf('{ "uploads": { "robot": "/upload/handle" } }')[0]?.code).toBe('INVALID_UPLOAD_HANDLE_STEP_NAME');
  });

  it('runs the shared schema too, for a robot whose parameters are not listed', () => {
    const problems = problemsOf('{ ":original": { "robot": "/upload/handle" }, "s": { "robot": "/youtube/store", "use": ":original", "result": "yes" } }');
    expect(problems[0]?.code).toBe('ASSEMBLY_INVALID_STEPS');
    expect(problems[0]?.message).toMatch(/^Step "s": "result"/);
  });

  it("checks each parameter against its robot's list: every problem, each at its line", () => {
    const text = ['{', '  ":original": { "robot": "/upload/handle" },', '  "resize": {', '    "robot": "/image/resize",', '    "use": ":original",', '    "width": "wide",', '    "heigth": 200,', '    "resize_strategy": "squash"', '  }', '}'].join('\n');
    const check = checkStepsText(text);
    expect(check.kind).toBe('invalid');
    expect(stepsMarkers(text, check).map((m) => [m.line, m.message.replace(/ \(IMAGE_RESIZE_VALIDATION\)$/, '')])).toEqual([
      [6, 'Step "resize" (/image/resize): width must be a whole number from 1 to 25000 (got "wide").'],
      [7, 'Step "resize" (/image/resize): "heigth" is not a parameter of /image/resize. Did you mean "height"?'],
      [8, 'Step "resize" (/image/resize): resize_strategy must be one of crop, fillcrop, fit, min_fit, pad, stretch (got "squash").'],
    ]);
  });

  it('knows the model robots: /text/translate, /image/generate (no use needed) and /image/bgremove, each checked at its parameter', () => {
    const steps = { ':original': { robot: '/upload/handle' }, de: { robot: '/text/translate', use: ':original', target_langauge: 'de' }, pic: { robot: '/image/generate', prompt: 'a cat', num_outputs: 11 }, cut: { robot: '/image/bgremove', use: ':original', select: 'sky' } };
    expect(problemsOf(JSON.stringify(steps)).map((p) => [p.step, p.parameter, p.message.replace(/^Step "\w+" \([^)]+\): /, '')])).toEqual([
      ['de', 'target_langauge', '"target_langauge" is not a parameter of /text/translate. Did you mean "target_language"?'],
      ['pic', 'num_outputs', 'num_outputs must be a whole number from 1 to 10 (got 11).'],
      ['cut', 'select', 'select must be one of background, foreground (got "sky").'],
    ]);
  });

  it('says which robot does not exist, and which step and key it is in', () => {
    const [problem] = problemsOf('{ ":original": { "robot": "/upload/handle" }, "s": { "robot": "image/resize", "use": ":original" } }');
    expect(problem).toMatchObject({ code: 'ASSEMBLY_STEP_UNKNOWN_ROBOT', step: 's', parameter: 'robot' });
    expect(problem?.message).toContain('Did you mean "/image/resize"?');
    // A robot of the real service that the local one does not run is fine here: the workspace may be remote.
    expect(checkStepsText('{ ":original": { "robot": "/upload/handle" }, "s": { "robot": "/s3/store", "use": ":original" } }').kind).toBe('ok');
  });
});

describe('stepsMarkers (the steps editor\'s line markers)', () => {
  it('puts a problem at its parameter\'s line, or its step\'s when the parameter is not written', () => {
    const text = JSON.stringify({ ':original': { robot: '/upload/handle' }, resized: { robot: '/image/resize', use: ':nothing', width: 100 }, sparkle: { robot: '/image/sparkle', use: ':original' } }, null, 2);
    const check = checkStepsText(text);
    expect(check.kind).toBe('invalid');
    const markers = stepsMarkers(text, check);
    const lines = text.split('\n');
    const at = (needle: string) => lines.findIndex((l) => l.includes(needle)) + 1;
    const sparkle = markers.find((m) => m.message.includes('/image/sparkle'));
    expect([at('"sparkle"'), at('"/image/sparkle"')]).toContain(sparkle?.line);
    const use = markers.find((m) => m.message.includes(':nothing'));
    expect(use?.line).toBe(at('":nothing"'));
    expect(markers.every((m) => /\([A-Z_]+\)$/.test(m.message))).toBe(true);
  });

  it('marks a syntax error at its line and column', () => {
    const text = '{\n  ":original": {\n    "robot": "/upload/handle",\n  }\n}';
    expect(stepsMarkers(text, checkStepsText(text))).toEqual([{ line: 4, column: 3, message: expect.stringContaining('Unexpected token }') }]);
  });

  it('marks nothing on valid steps', () => {
    const text = formatSteps({ ':original': { robot: '/upload/handle', result: true } });
    expect(stepsMarkers(text, checkStepsText(text))).toEqual([]);
  });
});

