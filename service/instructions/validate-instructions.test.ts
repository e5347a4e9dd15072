import { describe, expect, it } from 'vitest';
import { KNOWN_ROBOTS } from './known-robots';
import { topologicalOrder, validateInstructions } from './validate-instructions';

const orig = { robot: '/upload/handle' };
const resize = (extra: Record<string, unknown> = {}) => ({ robot: '/image/resize', use: ':original', width: 100, ...extra });
const code = (steps: unknown) => validateInstructions(steps)?.code ?? null;

describe('validateInstructions: the steps object', () => {
  it('accepts a valid pipeline', () => {
    expect(validateInstructions({ ':original': orig, thumb: resize() })).toBeNull();
  });
  it('ASSEMBLY_NO_STEPS when steps are missing', () => {
    expect(code(undefined)).toBe('ASSEMBLY_NO_STEPS');
    expect(code(null)).toBe('ASSEMBLY_NO_STEPS');
  });
  it('ASSEMBLY_INVALID_STEPS when steps are not an object', () => {
    for (const bad of ['steps', 42, [resize()], true]) expect(code(bad)).toBe('ASSEMBLY_INVALID_STEPS');
  });
  it('ASSEMBLY_EMPTY_STEPS for {}', () => {
    expect(validateInstructions({})).toEqual({ code: 'ASSEMBLY_EMPTY_STEPS', message: 'Your Assembly {steps: …} parameter is empty.' });
  });
});

describe('validateInstructions: parameters against the robot\'s list (shared/api/robot-params)', () => {
  it('refuses a wrong type, an unknown name and a value outside its set, naming the step and the parameter', () => {
    expect(validateInstructions({ ':original': orig, r: resize({ width: 'wide' }) })).toMatchObject({ code: 'IMAGE_RESIZE_VALIDATION', step: 'r', parameter: 'width' });
    expect(validateInstructions({ ':original': orig, r: resize({ heigth: 200 }) })).toMatchObject({ code: 'IMAGE_RESIZE_VALIDATION', step: 'r', parameter: 'heigth', message: expect.stringContaining('Did you mean "height"?') });
    expect(validateInstructions({ ':original': orig, r: resize({ resize_strategy: 'squash' }) })).toMatchObject({ code: 'IMAGE_RESIZE_VALIDATION', step: 'r', parameter: 'resize_strategy' });
  });
  it('then its own rules: a value the vendor takes that this service does not run', () => {
    expect(validateInstructions({ ':original': orig, w: { robot: '/audio/waveform', use: ':original', style: 'v1' } })).toMatchObject({ code: 'AUDIO_WAVEFORM_VALIDATION', message: expect.stringContaining('only "v0" is') });
  });
});

describe('validateInstructions: robots and step names', () => {
  it('ASSEMBLY_STEP_NO_ROBOT for a step without robot or not an object', () => {
    expect(validateInstructions({ a: { use: ':original' } })).toMatchObject({ code: 'ASSEMBLY_STEP_NO_ROBOT', step: 'a' });
    expect(code({ a: 'resize' })).toBe('ASSEMBLY_STEP_NO_ROBOT');
  });
  it('ASSEMBLY_STEP_INVALID_ROBOT for a non-string robot', () => {
    expect(code({ a: { robot: 5, use: ':original' } })).toBe('ASSEMBLY_STEP_INVALID_ROBOT');
  });
  it('ASSEMBLY_STEP_UNKNOWN_ROBOT lists what the service supports', () => {
    const err = validateInstructions({ a: { robot: '/youtube/store', use: ':original' } });
    expect(err).toMatchObject({ code: 'ASSEMBLY_STEP_UNKNOWN_ROBOT', step: 'a', parameter: 'robot' });
    expect(err!.message).toContain('/youtube/store');
    for (const robot of KNOWN_ROBOTS) expect(err!.message).toContain(robot);
    expect(validateInstructions({ a: { robot: 'image/resize', use: ':original' } })!.message).toContain('Did you mean "/image/resize"?');
  });
  it('INVALID_UPLOAD_HANDLE_STEP_NAME when /upload/handle is not named :original', () => {
    const err = validateInstructions({ uploads: orig });
    expect(err).toMatchObject({ code: 'INVALID_UPLOAD_HANDLE_STEP_NAME', step: 'uploads' });
    expect(err!.message).toContain(':original');
  });
  it('a step named :original must use /upload/handle', () => {
    expect(validateInstructions({ ':original': resize({ use: undefined }) })).toMatchObject({ code: 'INVALID_STEP_NAME', step: ':original' });
  });
  it('INVALID_STEP_NAME for an empty name', () => {
    expect(code({ '': resize() })).toBe('INVALID_STEP_NAME');
  });
});

describe('validateInstructions: use', () => {
  it('accepts every documented form of use', () => {
    const forms = [
      ':original',
      [':original'],
      [{ name: ':original', as: 'image', fields: 'photos' }],
      [{ name: ':original', fields: ['a', 'b'] }],
      { steps: [':original'], bundle_steps: true, group_by_original: false, fields: ['photos'] },
      { steps: ':original' },
    ];
    for (const use of forms) expect(validateInstructions({ ':original': orig, r: resize({ use }) })).toBeNull();
  });
  it('ASSEMBLY_STEP_UNKNOWN_USE names the missing step', () => {
    const err = validateInstructions({ r: resize({ use: 'nope' }) });
    expect(err).toMatchObject({ code: 'ASSEMBLY_STEP_UNKNOWN_USE', step: 'r' });
    expect(err!.message).toContain('"nope"');
    expect(code({ r: resize({ use: [{ name: 'ghost' }] }) })).toBe('ASSEMBLY_STEP_UNKNOWN_USE');
    expect(code({ r: resize({ use: { steps: ['ghost'] } }) })).toBe('ASSEMBLY_STEP_UNKNOWN_USE');
  });
  it('ASSEMBLY_STEP_INVALID_USE for malformed use', () => {
    for (const use of [42, [], [''], [{ as: 'x' }], [7], { steps: 5 }, { steps: [':original'], bundle_steps: 'yes' }, { steps: [':original'], fields: [1] }, null]) {
      expect({ use, code: code({ r: resize({ use }) }) }).toEqual({ use, code: 'ASSEMBLY_STEP_INVALID_USE' });
    }
  });
  it('a robot that needs input must have a use', () => {
    const err = validateInstructions({ r: resize({ use: undefined }) });
    expect(err).toMatchObject({ code: 'ASSEMBLY_STEP_INVALID_USE', step: 'r' });
  });
  it('/upload/handle takes no use', () => {
    expect(validateInstructions({ ':original': { robot: '/upload/handle', use: 'x' } })).toMatchObject({ code: 'ASSEMBLY_STEP_INVALID_USE', step: ':original' });
  });
  it('ASSEMBLY_INFINITE for a loop, with the service message and the loop', () => {
    const err = validateInstructions({ ':original': orig, a: resize({ use: 'b' }), b: resize({ use: ['c'] }), c: resize({ use: 'a' }) });
    expect(err?.code).toBe('ASSEMBLY_INFINITE');
    expect(err!.message).toContain('Your Assembly appears to be infinite, the "use" parameters form a loop.');
    expect(err!.message).toMatch(/a → b → c → a|b → c → a → b|c → a → b → c/);
    expect(code({ a: resize({ use: 'a' }) })).toBe('ASSEMBLY_INFINITE');
  });
});

describe('validateInstructions: robot parameters', () => {
  const resizeCode = (extra: Record<string, unknown>) => validateInstructions({ ':original': orig, r: resize(extra) });
  it('IMAGE_RESIZE_VALIDATION for out-of-range sizes, naming step and parameter', () => {
    for (const width of [0, 30000, -5, 1.5, 'wide']) {
      const err = resizeCode({ width });
      expect(err).toMatchObject({ code: 'IMAGE_RESIZE_VALIDATION', step: 'r' });
      expect(err!.message).toContain('Step "r"');
      expect(err!.message).toContain('width');
    }
    // The parameter at fault, for an editor to mark its line.
    expect(resizeCode({ width: 30000 })).toMatchObject({ parameter: 'width' });
    expect(validateInstructions({ t: { robot: '/video/thumbs', use: ':original', ffmpeg: {} } })).toMatchObject({ code: 'VIDEO_THUMBS_VALIDATION', parameter: 'ffmpeg' });
    expect(resizeCode({ height: 25001 })?.code).toBe('IMAGE_RESIZE_VALIDATION');
    expect(resizeCode({ width: 25000, height: '1' })).toBeNull();
  });
  it('IMAGE_RESIZE_VALIDATION for bad strategy, quality, format, gravity, background, zoom, crop', () => {
    const bad = [
      { resize_strategy: 'squash' }, { quality: 0 }, { quality: 101 }, { format: 'bmp' }, { gravity: 'middle' },
      { background: 12 }, { zoom: 'yes' }, { rotation: 45 }, { rotation: 'left' }, { crop: { x1: 10, y1: 0, x2: 5, y2: 10 } }, { crop: 'not json' }, { strip: 1 },
    ];
    for (const extra of bad) expect({ extra, code: resizeCode(extra)?.code }).toEqual({ extra, code: 'IMAGE_RESIZE_VALIDATION' });
    expect(resizeCode({ resize_strategy: 'pad', quality: 1, format: 'jpg', gravity: 'top-left', background: '#FFF', crop: '{"x1":0,"y1":0,"x2":5,"y2":5}' })).toBeNull();
  });
  it('defers checks of interpolated values to run time', () => {
    expect(resizeCode({ width: '${fields.width}' })).toBeNull();
  });
  it('rejects JavaScript in ${…} with a clear message', () => {
    const err = resizeCode({ width: '${fields.w * 2}' });
    expect(err?.code).toBe('IMAGE_RESIZE_VALIDATION');
    expect(err!.message).toMatch(/JavaScript expressions .* not supported/);
  });
  it('common fields: result and ignore_errors must be well-formed', () => {
    expect(resizeCode({ result: 'yes' })?.code).toBe('IMAGE_RESIZE_VALIDATION');
    expect(resizeCode({ ignore_errors: ['everything'] })?.code).toBe('IMAGE_RESIZE_VALIDATION');
    expect(resizeCode({ result: true, ignore_errors: ['execute'] })).toBeNull();
  });
  it('FILE_FILTER_INVALID_OPERATOR and FILE_FILTER_VALIDATION', () => {
    const filter = (extra: Record<string, unknown>) => validateInstructions({ f: { robot: '/file/filter', use: ':original', ...extra } });
    const op = filter({ accepts: [['${file.size}', '=~', 5]] });
    expect(op).toMatchObject({ code: 'FILE_FILTER_INVALID_OPERATOR', step: 'f' });
    expect(op!.message).toContain('=~');
    expect(filter({ declines: [['${file.size}', 'like', 5]] })?.code).toBe('FILE_FILTER_INVALID_OPERATOR');
    expect(filter({ accepts: 'yes' })?.code).toBe('FILE_FILTER_VALIDATION');
    expect(filter({ accepts: { a: 1 } })?.code).toBe('FILE_FILTER_VALIDATION');
    expect(filter({ accepts: ['${file.size}'] })?.code).toBe('FILE_FILTER_VALIDATION');
    expect(filter({ accepts: [['${file.name}', 'regex', '(unclosed']] })?.code).toBe('FILE_FILTER_VALIDATION');
    expect(filter({ condition_type: 'xor' })?.code).toBe('FILE_FILTER_VALIDATION');
    expect(filter({ error_on_decline: 'true' })?.code).toBe('FILE_FILTER_VALIDATION');
    const js = filter({ accepts: '${file.size <= 720}' });
    expect(js?.code).toBe('FILE_FILTER_VALIDATION');
    expect(js!.message).toMatch(/JavaScript expressions .* not supported by the local service/);
    expect(filter({ accepts: [['${file.size > 1}', '==', 'true']] })?.code).toBe('FILE_FILTER_VALIDATION');
    expect(filter({ accepts: [['${file.mime}', 'regex', 'image'], ['${file.size}', '<', '20mb']], condition_type: 'and', error_on_decline: true })).toBeNull();
    expect(filter({ accepts: null, declines: [['${file.meta.width}', 'empty']] })).toBeNull();
  });
  it('parameters of the other robots', () => {
    const step = (robot: string, extra: Record<string, unknown>) => validateInstructions({ s: { robot, use: ':original', ...extra } })?.code ?? null;
    expect(step('/file/hash', { algorithm: 'crc32' })).toBe('FILE_HASH_VALIDATION');
    expect(step('/file/hash', { algorithm: 'sha1', partial: 'first', partial_size: 10 })).toBeNull();
    expect(step('/image/optimize', { priority: 'fast' })).toBe('IMAGE_OPTIMIZE_VALIDATION');
    expect(step('/video/thumbs', { count: 0 })).toBe('VIDEO_THUMBS_INVALID_COUNT_VALUE');
    expect(step('/video/thumbs', { width: 4000 })).toBe('VIDEO_THUMBS_VALIDATION');
    expect(step('/video/thumbs', { offsets: [1, '50%'], count: 2 })).toBeNull();
    expect(step('/audio/encode', { preset: 'wma' })).toBe('AUDIO_ENCODE_VALIDATION');
    expect(step('/audio/encode', { ffmpeg: { 'b:a': '1k' } })).toBe('AUDIO_ENCODE_VALIDATION');
    expect(step('/audio/encode', { preset: 'opus', bitrate: 64000 })).toBeNull();
  });
});

describe('topologicalOrder', () => {
  it('orders by the use graph, not key order', () => {
    const steps = {
      exported: { use: ['thumb', 'big'] },
      thumb: { use: 'filtered' },
      big: { use: ':original' },
      filtered: { use: ':original' },
      ':original': {},
    };
    const result = topologicalOrder(steps);
    expect('order' in result).toBe(true);
    const order = 'order' in result ? result.order : [];
    const before = (a: string, b: string) => expect(order.indexOf(a)).toBeLessThan(order.indexOf(b));
    before(':original', 'filtered');
    before('filtered', 'thumb');
    before('thumb', 'exported');
    before('big', 'exported');
    expect(order).toHaveLength(5);
  });
  it('includes an implicit :original that is used but not declared', () => {
    expect(topologicalOrder({ a: { use: ':original' } })).toEqual({ order: [':original', 'a'] });
  });
  it('reports a loop', () => {
    expect(topologicalOrder({ a: { use: 'b' }, b: { use: 'a' } })).toEqual({ loop: ['a', 'b', 'a'] });
  });
});
