import { describe, expect, it } from 'vitest';
import { findUnsupportedExpression, interpolateParams, interpolateString } from './interpolation';

const scope = {
  file: { name: 'a b.png', size: 2048, meta: { width: 640, tags: ['x'] }, user_meta: { owner: 'kim' } },
  fields: { size: '300' },
  assembly: { id: 'abc' },
  previous_step: { name: ':original' },
  date: { now: 1_700_000_000_000 },
};

describe('interpolation', () => {
  it('keeps the type of a value that is the whole string', () => {
    expect(interpolateString('${file.size}', scope)).toBe(2048);
    expect(interpolateString('${file.meta.tags}', scope)).toEqual(['x']);
    expect(interpolateString('${date.now}', scope)).toBe(1_700_000_000_000);
  });
  it('joins values into text inside longer strings; missing values become ""', () => {
    expect(interpolateString('${assembly.id}/${file.meta.width}px-${file.user_meta.owner}', scope)).toBe('abc/640px-kim');
    expect(interpolateString('from ${previous_step.name}', scope)).toBe('from :original');
    expect(interpolateString('[${file.meta.missing}]', scope)).toBe('[]');
    expect(interpolateString('${nothing.here}', scope)).toBe('');
  });
  it('does not walk into inherited properties', () => {
    expect(interpolateString('${file.constructor}', scope)).toBe('');
    expect(interpolateString('${file.name.length}', scope)).toBe('');
  });
  it('honours interpolate: false and per-key settings; never touches robot and use', () => {
    const params = { robot: '/x/${fields.size}', use: '${fields.size}', width: '${fields.size}', height: '${fields.size}' };
    expect(interpolateParams(params, scope)).toEqual({ ...params, width: '300', height: '300' });
    expect(interpolateParams({ ...params, interpolate: false }, scope)).toMatchObject({ width: '${fields.size}', height: '${fields.size}' });
    expect(interpolateParams({ ...params, interpolate: { height: false } }, scope)).toMatchObject({ width: '300', height: '${fields.size}' });
    expect(interpolateParams({ nested: { path: ['${assembly.id}'] } }, scope)).toEqual({ nested: { path: ['abc'] } });
  });
  it('finds JavaScript and unclosed expressions', () => {
    expect(findUnsupportedExpression('${file.size <= 720}')).toBe('${file.size <= 720}');
    expect(findUnsupportedExpression('${Math.max(1, 2)}')).toBe('${Math.max(1, 2)}');
    expect(findUnsupportedExpression('${file.meta.width}x${file.meta.height}')).toBeNull();
    expect(findUnsupportedExpression('broken ${file.size')).toBe('broken ${file.size');
    expect(findUnsupportedExpression('no variables')).toBeNull();
  });
});
