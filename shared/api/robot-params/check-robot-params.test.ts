import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { PRESETS } from '../presets';
import { checkSteps } from '../step-rules';
import { checkRobotParams, editDistance, nearest } from './check-robot-params';
import { ROBOT_PARAMS } from './robot-catalog';

const robots = Object.keys(ROBOT_PARAMS);
const everything = { robotExists: () => true };

describe('robot parameters', () => {
  it('names the three problems an admin met, each at its parameter, with the robot\'s validation code', () => {
    const problems = checkRobotParams('resize', '/image/resize', { robot: '/image/resize', use: ':original', width: 'wide', heigth: 200, resize_strategy: 'squash' });
    expect(problems).toEqual([
      { code: 'IMAGE_RESIZE_VALIDATION', kind: 'type', parameter: 'width', message: 'Step "resize" (/image/resize): width must be a whole number from 1 to 25000 (got "wide").' },
      { code: 'IMAGE_RESIZE_VALIDATION', kind: 'unknown', parameter: 'heigth', suggestion: 'height', message: 'Step "resize" (/image/resize): "heigth" is not a parameter of /image/resize. Did you mean "height"?' },
      { code: 'IMAGE_RESIZE_VALIDATION', kind: 'value', parameter: 'resize_strategy', message: 'Step "resize" (/image/resize): resize_strategy must be one of crop, fillcrop, fit, min_fit, pad, stretch (got "squash").' },
    ]);
  });

  it('accepts every ready-made step set, and the vendor\'s defaults', () => {
    for (const preset of PRESETS) expect(checkSteps(preset.steps, everything), preset.id).toEqual([]);
    const defaults = {
      ':original': { robot: '/upload/handle', result: false, force_accept: false, ignore_errors: [] },
      resized: { robot: '/image/resize', use: ':original', format: null, resize_strategy: 'fit', zoom: true, gravity: 'center', strip: false, flatten: true, quality: 92, background: '#FFFFFF', rotation: true, brightness: 1, hue: 100, watermark_position: 'center', watermark_resize_strategy: 'fit', imagemagick_stack: 'v3' },
      thumbs: { robot: '/video/thumbs', use: ':original', count: 8, offsets: [], format: 'jpeg', resize_strategy: 'pad', background: '#00000000', rotate: 0, ffmpeg_stack: 'v6.0.0' },
      encoded: { robot: '/video/encode', use: ':original', preset: 'ipad_high', resize_strategy: 'pad', zoom: true, background: '#00000000', hint: false, turbo: false, watermark_url: '', watermark_duration: -1, segment: false, segment_duration: 10 },
      audio: { robot: '/audio/encode', use: ':original', preset: 'mp3' },
      wave: { robot: '/audio/waveform', use: ':original', format: 'image', width: 256, height: 64, antialiasing: 0, background_color: '#00000000', center_color: '000000ff', outer_color: '000000ff', style: 'v0' },
      packed: { robot: '/file/compress', use: ':original', format: 'tar', gzip: false, compression_level: -6, file_layout: 'advanced' },
      hashed: { robot: '/file/hash', use: ':original', algorithm: 'sha256', partial: 'full', partial_size: 1048576 },
      optimized: { robot: '/image/optimize', use: ':original', priority: 'conversion-speed', progressive: false, preserve_meta_data: true, fix_breaking_images: true, lossy: false },
      filtered: { robot: '/file/filter', use: ':original', accepts: [['${file.size}', '<=', '20mb']], condition_type: 'or', error_on_decline: false, error_msg: 'One of your files was declined' },
      sent: { robot: '/sftp/store', use: ':original', host: 'example.com', port: 22, user: 'u', password: 'p', path: '${unique_prefix}/${file.url_name}' },
      kept: { robot: '/transloadit/store', use: ':original', path: 'a/${file.name}', conflict_strategy: 'rename' },
      asked: { robot: '/ai/chat', use: ':original', messages: 'Describe it', format: 'text', return_messages: 'last', model: 'auto' },
      to_s3: { robot: '/s3/store', use: ':original', credentials: 'c', path: '${unique_prefix}/${file.url_name}', url_prefix: 'http://{bucket}.s3.amazonaws.com/', acl: 'public-read', check_integrity: false, headers: { 'Content-Type': '${file.mime}' }, tags: {}, host: 's3.amazonaws.com', no_vhost: false },
      from_s3: { robot: '/s3/import', credentials: 'c', path: 'a/', recursive: false, page_number: 1, files_per_page: 1000, return_file_stubs: false, force_name: null, ignore_errors: [], import_on_errors: [] },
      from_web: { robot: '/http/import', url: 'https://example.com/a.jpg', url_delimiter: '|', headers: [], import_on_errors: [], fail_fast: false, return_file_stubs: false },
      to_ftp: { robot: '/ftp/store', use: ':original', credentials: 'c', port: 21, path: '${unique_prefix}/${file.url_name}', url_template: 'https://{HOST}/{PATH}', ssl_url_template: 'https://{HOST}/{PATH}', secure: false },
      from_ftp: { robot: '/ftp/import', credentials: 'c', port: 21, path: 'a/', passive_mode: true },
      from_sftp: { robot: '/sftp/import', credentials: 'c', port: 22, path: 'a/', recursive: false },
      to_spaces: { robot: '/digitalocean/store', use: ':original', space: 's', region: 'fra1', key: 'k', secret: 's', acl: 'public-read' },
      from_b2: { robot: '/backblaze/import', bucket: 'b', app_key_id: 'i', app_key: 'k', path: 'a/', start_file_name: 'x' },
    };
    expect(checkSteps(defaults, everything)).toEqual([]);
  });

  it('leaves a `${…}` value to the service until it is interpolated, then checks it', () => {
    const step = { robot: '/image/resize', use: ':original', width: '${fields.w}', resize_strategy: '${fields.s}' };
    expect(checkRobotParams('r', '/image/resize', step)).toEqual([]);
    expect(checkRobotParams('r', '/image/resize', { ...step, width: '300', resize_strategy: 'pad' }, { interpolated: true })).toEqual([]);
    expect(checkRobotParams('r', '/image/resize', { ...step, width: 'abc' }, { interpolated: true }).map((p) => p.parameter)).toEqual(['width', 'resize_strategy']);
  });

  it('checks nothing of a robot it does not list (its parameters are not known)', () => {
    expect(checkRobotParams('s', '/youtube/store', { robot: '/youtube/store', use: ':original', titel: 1 })).toEqual([]);
  });

  it('keeps a code of the service\'s own where it has one', () => {
    expect(checkRobotParams('t', '/video/thumbs', { count: 0 })[0]?.code).toBe('VIDEO_THUMBS_INVALID_COUNT_VALUE');
  });

  it('flags any name a robot does not take, with its validation code, and checks the rest of the step too', () => {
    fc.assert(
      fc.property(fc.constantFrom(...robots), fc.string({ minLength: 1, maxLength: 24 }), (robot, name) => {
        fc.pre(!Object.prototype.hasOwnProperty.call(ROBOT_PARAMS[robot], name));
        const problems = checkRobotParams('s', robot, { robot, [name]: 1, result: 'maybe' });
        const prefix = robot.slice(1).replace(/[/-]/g, '_').toUpperCase();
        expect(problems.map((p) => [p.code, p.kind, p.parameter])).toEqual([
          [`${prefix}_VALIDATION`, 'unknown', name],
          [`${prefix}_VALIDATION`, 'value', 'result'],
        ]);
      }),
    );
  });

  it('suggests, for one slip in a known name (a swap, a letter more, less or changed), a name that close', () => {
    const slips = fc
      .tuple(fc.constantFrom(...robots), fc.nat(), fc.nat(), fc.constantFrom('swap', 'drop', 'add', 'change'), fc.constantFrom(...'abcdefghijklmnopqrstuvwxyz_'))
      .map(([robot, which, at, slip, letter]) => {
        const names = Object.keys(ROBOT_PARAMS[robot]!).filter((n) => n.length >= 4);
        const name = names[which % names.length]!;
        const i = at % (name.length - 1);
        const typo =
          slip === 'swap' ? name.slice(0, i) + name[i + 1] + name[i] + name.slice(i + 2)
          : slip === 'drop' ? name.slice(0, i) + name.slice(i + 1)
          : slip === 'add' ? name.slice(0, i) + letter + name.slice(i)
          : name.slice(0, i) + letter + name.slice(i + 1);
        return { robot, name, typo };
      });
    fc.assert(
      fc.property(slips, ({ robot, name, typo }) => {
        fc.pre(!Object.prototype.hasOwnProperty.call(ROBOT_PARAMS[robot], typo));
        const [problem] = checkRobotParams('s', robot, { [typo]: true });
        expect(problem?.kind).toBe('unknown');
        expect(problem?.suggestion).toBeDefined();
        expect(editDistance(typo, problem!.suggestion!)).toBeLessThanOrEqual(editDistance(typo, name));
      }),
    );
  });

  it('refuses any string outside a closed set as outside it, and accepts every value in it', () => {
    const closed = robots.flatMap((robot) => Object.entries(ROBOT_PARAMS[robot]!).filter(([, k]) => k.values && !k.normalize).map(([name, k]) => ({ robot, name, values: k.values! })));
    fc.assert(
      fc.property(fc.constantFrom(...closed), fc.string({ maxLength: 12 }), ({ robot, name, values }, word) => {
        for (const v of values) expect(checkRobotParams('s', robot, { [name]: v })).toEqual([]);
        fc.pre(!values.includes(word) && !word.includes('${'));
        const [problem] = checkRobotParams('s', robot, { [name]: word });
        expect(problem?.parameter).toBe(name);
        expect(problem?.message).toContain(`${name} must be `);
        expect(problem?.message).toContain(`(got ${JSON.stringify(word)})`);
      }),
    );
  });

  it('takes whole numbers inside their bounds, as numbers or text, and refuses the rest', () => {
    fc.assert(
      fc.property(fc.integer({ min: -30_000, max: 30_000 }), (n) => {
        const inside = n >= 1 && n <= 25_000;
        for (const value of [n, String(n)]) expect(checkRobotParams('r', '/image/resize', { width: value }).length === 0).toBe(inside);
        expect(checkRobotParams('r', '/image/resize', { width: n + 0.5 })[0]?.kind).toBe('value');
      }),
    );
  });

  it('tells a video preset written with "_" from one that does not exist', () => {
    expect(checkRobotParams('e', '/video/encode', { preset: 'web/mp4/1080p' })).toEqual([]);
    expect(checkRobotParams('e', '/video/encode', { preset: 'ipad_high' })).toEqual([]);
    expect(checkRobotParams('e', '/video/encode', { preset: 'ipad-hihg' })[0]?.suggestion).toBe('ipad-high');
  });

  it('finds the nearest name only when it is a slip away', () => {
    expect(nearest('heigth', ['width', 'height'])).toBe('height');
    expect(nearest('colour', ['width', 'height'])).toBeUndefined();
    expect(editDistance('abc', 'acb')).toBe(1);
  });
});
